# Every rank creates a link, yet only rank 0 pushes: the other ranks'
# links never take part in the broadcast.
import torch.distributed as dist
from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator
from vllm.distributed.utils import StatelessProcessGroup


class ServerLink:
    def __init__(self, host, port, server_world):
        pg = StatelessProcessGroup.create(host=host, port=port, rank=server_world, world_size=server_world + 1)
        self.comm = PyNcclCommunicator(pg, device=0)
        self.rank = server_world

    def push(self, weights):
        self.comm.broadcast(weights, src=self.rank)


class EveryRankTrainer:
    def __init__(self, model, host, port):
        self.model = model
        self.link = ServerLink(host, port, 2)

    def sync_weights(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                self.link.push(p.data)  # want CV301 "broadcast"
