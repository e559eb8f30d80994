# HSDP groups made by one loop variable each (g), the rank's own kept
# under two names: each name holds only the group of the loop that
# assigns it, so the finding names the inter-node group by its creation
# (pytorch/pytorch#147729).
import torch
import torch.distributed as dist


def setup(local):
    world = dist.get_world_size()
    rank = dist.get_rank()
    intra_pg = inter_pg = None
    for n in range(world // local):
        g = dist.new_group(list(range(n * local, (n + 1) * local)))
        if n == rank // local:
            intra_pg = g
    for i in range(local):
        g = dist.new_group(list(range(i, world, local)))
        if i == rank % local:
            inter_pg = g
    return intra_pg, inter_pg


def sync(full, shard, intra_pg, inter_pg):
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra_pg, async_op=True)
    w2 = dist.all_reduce(shard, group=inter_pg, async_op=True)  # want CV202 "all_reduce on group new_group@\S+:18 uses \"shard\""
    w2.wait()
    w1.wait()


def main():
    intra_pg, inter_pg = setup(8)
    full = torch.randn(8 * 1024, device="cuda")
    shard = torch.empty(1024, device="cuda")
    sync(full, shard, intra_pg, inter_pg)
