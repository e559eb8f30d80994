# Ranks 1..N train with DDP on a group of exactly those ranks, under
# `rank != 0` in one function; rank 0 only gathers and scatters on the
# default group, as the others do (a GigaPath end-to-end gradient check).
import torch
import torch.distributed as dist
import torch.nn as nn

def main(loader, k=8):
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    ddp_group = dist.new_group(ranks=list(range(1, world)))
    net = nn.Linear(16, 16).cuda()
    if rank != 0:
        net = nn.parallel.DistributedDataParallel(net, process_group=ddp_group)
    for x in loader:
        if rank != 0:
            feats = net(x.cuda())
        else:
            feats = torch.empty(k, 16, device="cuda")
        dist.barrier()
        allf = [torch.empty(k, 16, device="cuda") for _ in range(world)] if rank == 0 else None
        dist.gather(feats.detach(), allf, dst=0)
        dist.barrier()
        grads = allf if rank == 0 else None
        g = torch.zeros(k, 16, device="cuda")
        dist.scatter(g, grads, src=0)
        if rank != 0:
            (feats * g).sum().backward()
