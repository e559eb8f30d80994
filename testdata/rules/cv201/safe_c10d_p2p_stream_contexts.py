# torch.distributed isend/irecv under two stream contexts: the process
# group runs each on its own internal stream for the peer pair, after
# waiting for the caller's current stream; issue order is kept (zorse's
# pipeline communication).
import torch
import torch.distributed as dist


class Comm:
    def __init__(self):
        self.send_stream = torch.cuda.Stream()
        self.recv_stream = torch.cuda.Stream()

    def send(self, t, dst):
        with torch.cuda.stream(self.send_stream):
            return dist.isend(t, dst=dst)

    def recv(self, shape, src):
        with torch.cuda.stream(self.recv_stream):
            buf = torch.empty(shape, device="cuda")
            return dist.irecv(buf, src=src), buf
