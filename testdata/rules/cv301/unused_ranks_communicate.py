# The ranks past the pipeline's world size do not join, but they still
# wait at a barrier on the default group they never created.
import torch
import torch.distributed as dist


def run_worker(rank, world_size):
    dist.init_process_group(rank=rank, world_size=world_size)
    t = torch.ones(1)
    dist.all_reduce(t)


def main(args):
    actual_world_size = args.dp_group_size * args.pp_group_size
    if args.rank < actual_world_size:
        run_worker(args.rank, actual_world_size)  # want CV301 "args.rank < actual_world_size"
    else:
        dist.barrier()
