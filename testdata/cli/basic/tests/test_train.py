import torch.distributed as dist


def test_it(t):
    dist.all_reduce(t)
