import torch.distributed as dist


def scaled(x):
    req = dist.all_reduce(x, async_op=True)
    if x.is_cuda:
        y = x * 2  # want CV401 "\"x\" is read here"
    else:
        y = None
    req.wait()
    return y


def maybe_async(x, async_op=False):
    work = dist.all_reduce(x, async_op=async_op)
    total = x.sum()  # want CV401 "\"x\" is read here while all_reduce"
    if work is not None:
        work.wait()
    return total


def caller(x):
    return maybe_async(x, async_op=True)
