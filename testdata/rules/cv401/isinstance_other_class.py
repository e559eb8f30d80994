# Narrowed the other way: in the else arm of a test for the store-based
# class, the receiver can be a ProcessGroup, whose barrier returns work.
import torch.distributed as dist


class StatelessProcessGroup:
    def barrier(self):
        pass


def same_node(pg):
    if isinstance(pg, StatelessProcessGroup):
        return
    else:
        pg.barrier()  # want CV401 "ProcessGroup.barrier returns is discarded"


def main():
    dist.init_process_group("nccl")
    same_node(dist.new_group(backend="gloo"))
