# The same helper, with callers that do not leave alone: one fails the
# job when the allocation failed, one agrees on the failure with every
# rank first, and a helper whose None means an empty request, which
# every rank sees alike.
import torch
import torch.distributed as dist


def create_input(n, rank):
    try:
        return torch.ones(n).cuda().mul_(float(rank))
    except RuntimeError as e:
        if "out of memory" in str(e):
            return None
        raise e


def sized(n):
    if n == 0:
        return None
    return torch.ones(n).cuda()


def run_failing(n):
    x = create_input(n, dist.get_rank())
    if x is None:
        raise RuntimeError("could not allocate the input")
    dist.all_reduce(x)


def run_agreed(n):
    x = create_input(n, dist.get_rank())
    ok = torch.tensor([0 if x is None else 1], device="cuda")
    dist.all_reduce(ok, op=dist.ReduceOp.MIN)
    if ok.item() == 0:
        return
    dist.all_reduce(x)


def run_empty(n):
    x = sized(n)
    if x is None:
        return
    dist.all_reduce(x)
