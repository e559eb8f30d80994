# vLLM's in_the_same_node_as: a real ProcessGroup goes to dist.barrier,
# and the else arm calls the barrier of a store-based group, which blocks
# and returns nothing; the receiver there is no ProcessGroup.
import torch.distributed as dist
from torch.distributed import ProcessGroup


class StatelessProcessGroup:
    def barrier(self):
        pass


def same_node(pg):
    if isinstance(pg, ProcessGroup):
        dist.barrier(group=pg)
    else:
        pg.barrier()


def same_node_negated(pg):
    if not isinstance(pg, ProcessGroup):
        pg.barrier()


def main():
    dist.init_process_group("nccl")
    same_node(dist.new_group(backend="gloo"))
    same_node(StatelessProcessGroup())
    same_node_negated(dist.new_group(backend="gloo"))
