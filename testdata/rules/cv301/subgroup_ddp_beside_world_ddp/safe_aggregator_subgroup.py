# Rank 0 aggregates; ranks 1..N-1 train a DDP model on
# new_group(range(1, world)) under `rank != 0`: the test picks out the
# group's members (SEA's gradient-equivalence toy). Another program in
# the same directory wraps its model on the default group; that must not
# make this file's wrapper group unknown.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank)
    ddp_group = dist.new_group(ranks=list(range(1, world)))
    net = torch.nn.Linear(8, 8).cuda()
    if rank != 0:
        net = DDP(net, device_ids=[rank], process_group=ddp_group)
    for _ in range(10):
        if rank != 0:
            feats = net(torch.randn(4, 8, device="cuda"))
        else:
            feats = torch.empty(4, 8, device="cuda")
        dist.barrier()
        if rank != 0:
            feats.sum().backward()


if __name__ == "__main__":
    main()
