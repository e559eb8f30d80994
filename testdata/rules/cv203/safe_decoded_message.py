# vLLM's P2P KV engine: a request decoded from a socket message is a
# Python dict; its shape and dtype size a buffer made on the receive
# stream.
import msgpack
import torch


class Engine:
    def __init__(self, device):
        self.device = device
        self.recv_stream = torch.cuda.Stream()

    def get(self, sock, tensor_id):
        sock.send(msgpack.dumps({"cmd": "GET", "tensor_id": tensor_id}))
        data = msgpack.loads(sock.recv())
        if data["ret"] != 0:
            return None
        with torch.cuda.stream(self.recv_stream):
            tensor = torch.empty(data["shape"], dtype=getattr(torch, data["dtype"]), device=self.device)
        self.recv_stream.synchronize()
        return tensor
