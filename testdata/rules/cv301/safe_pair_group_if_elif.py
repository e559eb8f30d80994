# A group of two ranks, and each of them issuing the same broadcasts in
# its own arm of an if/elif (bamboo's pipeline pair groups): together the
# two tests pick out the group's members, as `if me in (src, dst):` does.
import torch
import torch.distributed as dist


def init_pair_group(src, dst, device):
    me = dist.get_rank()
    g = dist.new_group(ranks=[src, dst])
    a = torch.zeros(1, device=device)
    b = torch.zeros(1, device=device)
    if src == me:
        dist.broadcast(a, src=src, group=g)
        dist.broadcast(b, src=dst, group=g)
    elif dst == me:
        dist.broadcast(b, src=src, group=g)
        dist.broadcast(a, src=dst, group=g)
    return g
