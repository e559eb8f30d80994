# Each rank's block of consecutive ranks starts where its rank says but
# spans the same width everywhere: a test of its length is answered
# alike by every rank.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
k = dist.get_world_size() // 2
start = (rank // k) * k
block = list(range(start, start + k))
t = torch.ones(1, device="cuda")
if len(block) > 1:
    dist.all_reduce(t)
tp = [i for i in range((rank // 2) * k, (rank // 2 + 1) * k)]
if len(tp) > 1:
    dist.all_reduce(t)
