# The link is made under one condition and used under another: nothing
# shows that the two select the same ranks.
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


class OtherConditionTrainer:
    def __init__(self, model, host, port, local_rank):
        self.model = model
        if local_rank == 0:
            self.link = ServerLink(host, port, 2)

    def sync_weights(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                self.link.push(p.data)  # want CV301 "broadcast"
