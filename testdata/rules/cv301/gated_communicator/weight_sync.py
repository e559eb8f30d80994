# A client that joins this process to an inference server's workers: its
# communicator's members are the server's workers and this process only.
import torch
from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator
from vllm.distributed.utils import StatelessProcessGroup


class ServerLink:
    def __init__(self, host, port, server_world):
        self.host = host
        self.rank = server_world
        self.connect(port, server_world + 1)

    def connect(self, port, world):
        pg = StatelessProcessGroup.create(host=self.host, port=port, rank=self.rank, world_size=world)
        self.comm = PyNcclCommunicator(pg, device=0)

    def push(self, weights: torch.Tensor):
        self.comm.broadcast(weights, src=self.rank)


if __name__ == "__main__":
    # Run as a script, this file is its own program: one process.
    link = ServerLink("localhost", 51216, 1)
    link.push(torch.zeros(4, device="cuda"))
