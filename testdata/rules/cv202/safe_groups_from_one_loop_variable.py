# The same groups, each work waited before the next group uses its
# buffer; and a chain on one name, which one group's stream orders.
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
    w1.wait()
    w2 = dist.all_reduce(shard, group=inter_pg, async_op=True)
    w2.wait()


def chain(full, shard, intra_pg):
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra_pg, async_op=True)
    w2 = dist.all_gather_into_tensor(full, shard, group=intra_pg, async_op=True)
    w1.wait()
    w2.wait()


def main():
    intra_pg, inter_pg = setup(8)
    full = torch.randn(8 * 1024, device="cuda")
    shard = torch.empty(1024, device="cuda")
    sync(full, shard, intra_pg, inter_pg)
    chain(full, shard, intra_pg)
