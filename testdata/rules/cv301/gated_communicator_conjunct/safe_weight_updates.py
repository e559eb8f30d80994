# PipelineRL's weight-update group: made with _new_process_group_helper
# only where `rank == 0 and args.send_updates` holds, so its members are
# rank 0 and the inference workers; rank 0 alone broadcasts on it.
import torch.distributed as dist
from torch.distributed.distributed_c10d import _new_process_group_helper


def init_extra_group(rank, world_size, store):
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name="actor")
    return pg


class Sender:
    def __init__(self, group):
        self.group = group

    def send(self, params):
        if dist.get_rank() == 0:
            for p in params:
                dist.broadcast(p, src=0, group=self.group)


def main(args, store, params):
    dist.init_process_group("nccl")
    if dist.get_rank() == 0 and args.send_updates:
        group = init_extra_group(0, args.n, store)
    else:
        group = None
    if args.send_updates:
        Sender(group).send(params)
