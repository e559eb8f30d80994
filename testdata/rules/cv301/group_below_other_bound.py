# A group of the first K ranks under a test that picks fewer of them: the
# last member never issues the collective.
import torch
import torch.distributed as dist


def run(args, t):
    rank = dist.get_rank()
    group = dist.new_group(ranks=list(range(args.num_gpus)))
    if rank < args.num_gpus - 1:
        dist.all_reduce(t, group=group)  # want CV301 "all_reduce .*runs only when `rank < args.num_gpus - 1` holds"
    return t
