# The hazardous neighbour of safe_group_of_ranks_from_one.py: the group is
# ranks 2..N, but `rank != 0` also lets rank 1 in, which is no member and
# skips nothing the others wait for, or waits for what they never issue.
import torch
import torch.distributed as dist


def main(x):
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    workers = dist.new_group(ranks=list(range(2, world)))
    if rank != 0:
        dist.all_reduce(x, group=workers)  # want CV301 "all_reduce on group new_group@\S+:11 runs only when `rank != 0` holds"
    dist.barrier()
