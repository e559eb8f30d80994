import torch.distributed as dist


def warm_up(pg, tensors, timeout):
    pg.allreduce(tensors).wait(timeout)
    dist.all_reduce(tensors[0], async_op=True).wait()


def hook(buffers, group):
    return [dist.all_reduce(b, group=group, async_op=True).get_future() for b in buffers]
