# A helper builds the sharded engine, whose build() all-reduces, where
# its parameter asks for it: called so under a rank test, only rank 0
# all-reduces.
import torch
import torch.distributed as dist


class LocalEngine:
    def build(self, x):
        return x * 2


class ShardedEngine:
    def build(self, x):
        dist.all_reduce(x)
        return x


def evaluate(x, sharded=False):
    if sharded:
        engine = ShardedEngine()
    else:
        engine = LocalEngine()
    return engine.build(x)


def main():
    dist.init_process_group("nccl")
    x = torch.ones(1, device="cuda")
    if dist.get_rank() == 0:
        evaluate(x, sharded=True)  # want CV301 "dist.get_rank\(\) == 0"
    dist.barrier()
