# X1 (pytorch/pytorch#147729): async collectives on two groups, no wait.
import torch.distributed as dist


def sync_grads(shard, full):
    intra = dist.new_group()
    inter = dist.new_group()
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra, async_op=True)
    w2 = dist.all_reduce(shard, group=inter, async_op=True)  # want CV202 "uses \"shard\", which reduce_scatter_tensor"
    w1.wait()
    w2.wait()
