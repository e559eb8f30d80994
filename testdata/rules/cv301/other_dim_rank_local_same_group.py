# A pipeline rank read into a local gates a collective on the pipeline
# group itself, or on every rank: only some of its members issue it.
import torch
import torch.distributed as dist


def same_dim(pp_group):
    pp_rank = dist.get_rank(group=pp_group)
    pp_world_size = dist.get_world_size(group=pp_group)
    loss = torch.ones(1)
    if pp_rank == pp_world_size - 1:
        dist.all_reduce(loss, group=pp_group)  # want CV301 "runs only when `pp_rank == pp_world_size - 1`"


def on_world(pp_group):
    pp_rank = dist.get_rank(group=pp_group)
    is_last = pp_rank == dist.get_world_size(group=pp_group) - 1
    loss = torch.ones(1)
    if is_last:
        dist.all_reduce(loss)  # want CV301 "runs only when `is_last`"
