import torch.distributed as dist


def step(full, shard, other):
    a = dist.new_group()
    b = dist.new_group()
    ag = dist.all_gather_into_tensor(full, shard, group=a, async_op=True)
    dist.reduce_scatter_tensor(shard, other, group=b)  # want CV202 "\"shard\""
    ag.wait()
