# Unpickling can make CUDA tensors, written on the current stream: reading
# the result on the receive stream without a wait is a cross-stream read.
import pickle

import torch


class Engine:
    def __init__(self):
        self.recv_stream = torch.cuda.Stream()

    def get(self, sock):
        data = pickle.loads(sock.recv())
        with torch.cuda.stream(self.recv_stream):
            out = data["tensor"] * 2  # want CV203 "\"data\" is written on the current stream"
        self.recv_stream.synchronize()
        return out
