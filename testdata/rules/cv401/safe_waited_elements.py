# Handles waited one element at a time: popped off the list until it is
# empty, or indexed in a loop over its length.
import torch.distributed as dist


def drain(ops):
    reqs = dist.batch_isend_irecv(ops)
    while reqs:
        reqs.pop().wait()


def by_index(ts):
    works = [dist.all_reduce(t, async_op=True) for t in ts]
    for i in range(len(works)):
        works[i].wait()
    return ts
