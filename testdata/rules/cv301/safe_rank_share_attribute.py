# What a helper makes for this rank that is no number (a model placed on
# the rank's device, a logger) is no rank test where its attributes are
# read; a share computed without the rank is the same on every rank.
import torch
import torch.distributed as dist


def build_model(rank):
    model = torch.nn.Linear(4, 4).to(f"cuda:{rank}")
    return model


def per_rank(n, world_size):
    return n // world_size


class Evaluator:
    def __init__(self, n):
        self.n = n

    def setup(self):
        self.model = build_model(dist.get_rank())
        self.share = per_rank(self.n, dist.get_world_size())

    def run(self, t):
        if self.model.training:
            dist.all_reduce(t)
        if self.share > 0:
            dist.all_reduce(t)
