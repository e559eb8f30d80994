# Attributes of an object built with the rank that its class computes
# from the rank, or never sets, stay rank-dependent.
import torch
from lightning.fabric import Fabric


class PFCClassifier(torch.nn.Module):
    def __init__(self, rank, world_size):
        super().__init__()
        self.rank = rank
        self.apply_ddp = False
        self.is_head = rank == 0
        self.weight = torch.nn.Parameter(torch.zeros(10 // world_size, 4))

    def shard(self):
        self.apply_ddp = self.rank < 2


def get_classifier(rank, world_size):
    return PFCClassifier(rank, world_size)


if __name__ == "__main__":
    fabric = Fabric(strategy="ddp", devices=2)
    fabric.launch()
    classifier = get_classifier(rank=fabric.local_rank, world_size=fabric.world_size)
    if classifier.is_head:
        fabric.barrier()  # want CV301 "barrier"
    if classifier.apply_ddp:
        classifier = fabric.setup(classifier)  # want CV301 "setup"
