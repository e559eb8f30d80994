# A barrier whose handle nobody waits holds nothing back: the rank goes on
# before the others arrive.
import torch.distributed as dist


def in_rank_order(group: dist.ProcessGroup, func):
    for i in range(group.size()):
        if i == group.rank():
            func()
        group.barrier()  # want CV401 "goes on at once, before the other ranks arrive"


def checkpoint_then_go(save):
    save()
    w = dist.barrier(async_op=True)  # want CV401 "\"w\".*goes on at once"
    return None
