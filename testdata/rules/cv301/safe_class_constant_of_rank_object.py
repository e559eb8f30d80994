# An object built with the rank holds rank-dependent state, but an
# attribute its class sets only to literals is the same on every rank:
# `if classifier.apply_ddp:` reads the partial-FC classifier's class
# constant (CVLface), also through a factory classmethod and after the
# name is rebound to what the wrapper returns.
import torch
from lightning.fabric import Fabric


class PFCClassifier(torch.nn.Module):
    needs_gather = False

    def __init__(self, rank, world_size):
        super().__init__()
        self.rank = rank
        self.weight = torch.nn.Parameter(torch.zeros(10 // world_size, 4))
        self.apply_ddp = False

    @classmethod
    def from_config(cls, rank, world_size):
        return cls(rank, world_size)


def get_classifier(rank, world_size):
    return PFCClassifier.from_config(rank, world_size)


if __name__ == "__main__":
    fabric = Fabric(strategy="ddp", devices=2)
    fabric.launch()
    classifier = get_classifier(rank=fabric.local_rank, world_size=fabric.world_size)
    if classifier.apply_ddp:
        classifier = fabric.setup(classifier)
    else:
        classifier = classifier.to(fabric.device)
    if classifier.needs_gather:
        fabric.barrier()
    fabric.barrier()
