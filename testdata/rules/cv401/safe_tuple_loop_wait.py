# Handles waited by a loop over a tuple of them.
import torch.distributed as dist


def sync(full, shard, intra, inter):
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra, async_op=True)
    w2 = dist.all_reduce(shard, group=inter, async_op=True)
    w3 = dist.all_gather_into_tensor(full, shard, group=intra, async_op=True)
    for w in (w1, w2, w3):
        w.wait()
    return full
