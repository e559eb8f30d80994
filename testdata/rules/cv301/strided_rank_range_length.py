# A strided set of ranks has one more member on some ranks than on
# others when the world size is odd: the length test splits the ranks.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
world = dist.get_world_size()
peers = list(range(rank % 2, world, 2))
t = torch.ones(1, device="cuda")
if len(peers) > 1:
    dist.all_reduce(t)  # want CV301 "runs only when `len\(peers\) > 1` holds"
grown = list(range(rank, rank * 2))
if len(grown) > 1:
    dist.all_reduce(t)  # want CV301 "runs only when `len\(grown\) > 1` holds"
