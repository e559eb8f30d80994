# Split-role jobs: rank 0 aggregates while ranks 1..N train with DDP on a
# group of exactly those ranks (new_group(ranks=range(1, world_size))):
# the group's collectives run on all of its members in the else arm of
# `rank == 0` (a GigaPath end-to-end trainer).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def encoder_main(world_size, loader, model):
    ddp_group = dist.new_group(ranks=list(range(1, world_size)))
    model = DDP(model, process_group=ddp_group)
    for x in loader:
        f = model(x).contiguous()
        dist.barrier()
        dist.gather(f, None, dst=0)
        dist.barrier()
        g = torch.zeros_like(f)
        dist.scatter(g, None, src=0)
        (f * g).sum().backward()

def aggregator_main(world_size, loader):
    ddp_group = dist.new_group(ranks=list(range(1, world_size)))
    for x in loader:
        f = torch.empty(8, 4, device="cuda")
        dist.barrier()
        allf = [torch.empty(8, 4, device="cuda") for _ in range(world_size)]
        dist.gather(f, allf, dst=0)
        dist.barrier()
        g = torch.zeros_like(f)
        dist.scatter(g, allf, src=0)

def main(loader, model):
    dist.init_process_group("nccl")
    if dist.get_rank() == 0:
        aggregator_main(dist.get_world_size(), loader)
    else:
        encoder_main(dist.get_world_size(), loader, model)
