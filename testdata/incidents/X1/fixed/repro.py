import torch
import torch.distributed as dist


def setup():
    dist.init_process_group("nccl")
    world = dist.get_world_size()
    local = torch.cuda.device_count()
    rank = dist.get_rank()
    node = rank // local
    intra_pg = None
    inter_pg = None
    for n in range(world // local):
        g = dist.new_group(list(range(n * local, (n + 1) * local)))
        if n == node:
            intra_pg = g
    for i in range(local):
        g = dist.new_group(list(range(i, world, local)))
        if i == rank % local:
            inter_pg = g
    return intra_pg, inter_pg


def hsdp_grad_sync(full, shard, intra_pg, inter_pg):
    w1 = dist.reduce_scatter_tensor(shard, full, group=intra_pg, async_op=True)
    w1.wait()
    w2 = dist.all_reduce(shard, group=inter_pg, async_op=True)
    w2.wait()
    w3 = dist.all_gather_into_tensor(full, shard, group=intra_pg, async_op=True)
    for w in (w1, w2, w3):
        w.wait()
    return full


def main():
    intra_pg, inter_pg = setup()
    n = dist.get_world_size(intra_pg)
    full = torch.randn(n * 1024, device="cuda")
    shard = torch.empty(1024, device="cuda")
    hsdp_grad_sync(full, shard, intra_pg, inter_pg)


if __name__ == "__main__":
    main()
