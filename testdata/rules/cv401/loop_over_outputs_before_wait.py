# A loop over a list that holds the async collective's output reads the
# output through the loop's target before the wait.
import torch.distributed as dist


def scale(a, b):
    outs = [a, b]
    work = dist.all_reduce(a, async_op=True)
    for t in outs:
        t.div_(2)  # want CV401 "t.*which holds .a.*is read here"
    work.wait()


def scale_copy(a, b):
    work = dist.all_reduce(a, async_op=True)
    outs = [b, a]
    for t in list(outs):
        t.mul_(2)  # want CV401 "t.*which holds .a.*is read here"
    work.wait()
