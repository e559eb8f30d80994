# A blocking barrier on the same group completes the async collectives
# issued on it before: NCCL runs it after them on the group's stream and
# waits for it, gloo's barrier waits every operation in flight.
import torch
import torch.distributed as dist


def gather_variably_sized(x, sizes):
    rank = dist.get_rank()
    out = []
    for i, n in enumerate(sizes):
        t = x if i == rank else x.new_empty((n,) + tuple(x.shape[1:]))
        dist.broadcast(t, src=i, async_op=True)
        out.append(t)
    dist.barrier()
    return torch.cat(out, dim=0)


def held_then_barrier(t, group):
    h = dist.all_reduce(t, group=group, async_op=True)
    dist.barrier(group=group)
    return t * 2
