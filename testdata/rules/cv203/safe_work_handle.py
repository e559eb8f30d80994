# The work handle of an async collective issued under a side stream, and
# the Future it gives, are host objects: waiting them on the current
# stream is the synchronisation, not a read of device memory.
import torch
import torch.distributed as dist


def reduce_on_side(x, s):
    with torch.cuda.stream(s):
        work = dist.all_reduce(x, async_op=True)
    work.wait()
    return x


def future_on_side(x, s):
    with torch.cuda.stream(s):
        handle = dist.all_reduce(x, async_op=True)
        fut = handle.get_future()
    fut.wait()
    return x


def kept_on_side(xs, s):
    works = []
    with torch.cuda.stream(s):
        for x in xs:
            work = dist.all_reduce(x, async_op=True)
            works.append(work)
    for work in works:
        work.wait()
    return xs
