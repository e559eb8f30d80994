import torch.distributed as dist


def step(a, b):
    g1 = dist.new_group()
    g2 = dist.new_group()
    w1 = dist.all_reduce(a, group=g1, async_op=True)
    w2 = dist.all_reduce(b, group=g2, async_op=True)
    w1.wait()
    w2.wait()
