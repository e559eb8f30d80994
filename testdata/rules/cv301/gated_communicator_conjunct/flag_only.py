# Made where `args.send_updates` holds, on every rank: all of them are
# members, and rank 0 broadcasting alone leaves the others out of the
# collective.
import torch.distributed as dist
from torch.distributed.distributed_c10d import _new_process_group_helper


def make_group(rank, world_size, store):
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name="either")
    return pg


def push(group, params):
    if dist.get_rank() == 0:
        for p in params:
            dist.broadcast(p, src=0, group=group)  # want CV301 "get_rank\(\) == 0"


def main(args, store, params):
    dist.init_process_group("nccl")
    if args.send_updates:
        group = make_group(dist.get_rank(), args.n, store)
        push(group, params)
