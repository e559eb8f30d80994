import torch.distributed as dist


def sync_grads(shard, full):
    intra = dist.new_group()
    inter = dist.new_group()
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra, async_op=True)
    w1.wait()
    w2 = dist.all_reduce(shard, group=inter, async_op=True)
    w2.wait()
