# Async collectives whose outputs are read only after the wait, or are
# only handed on before it: silent.
import torch
import torch.distributed as dist


def waited_first(x):
    req = dist.all_reduce(x, async_op=True)
    req.wait()
    return x * 2


def overlap_other_tensor(x, w):
    req = dist.all_reduce(x, async_op=True)
    h = w @ w  # another tensor: the overlap async work is for
    n = x.shape[0]  # metadata, not the data
    req.wait()
    return x + h.sum() + n


def handed_on(x, pending, remember):
    req = dist.all_reduce(x, async_op=True)
    remember(x)  # kept by the program, read later
    pending.put((req, x))


def rebound(x):
    req = dist.all_reduce(x, async_op=True)
    x = torch.zeros(3)
    y = x + 1  # the new tensor
    req.wait()
    return y


def other_arm(x, fast):
    if fast:
        req = dist.all_reduce(x, async_op=True)
        req.wait()
    else:
        req = None
        y = x * 2
        return y
    return x


def filed_in_list(xs, group):
    reqs = []
    for x in xs:
        r = dist.all_reduce(x, group=group, async_op=True)
        reqs.append(r)
    for i, x in enumerate(xs):
        reqs[i].wait()
        x.div_(2)


def returned(x):
    req = dist.all_reduce(x, async_op=True)
    return x, req
