import torch.distributed as dist


def reduce_all(tensors):
    handles = []
    for t in tensors:
        handles.append(dist.all_reduce(t, async_op=True))
    for h in handles:
        h.wait()
