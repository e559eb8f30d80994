# The pipeline rank, read into a local (or a flag made from it), gates a
# collective on the data-parallel group: every member of a data-parallel
# group holds the same pipeline stage, so the whole group takes the arm
# (noloco's train.py).
import torch
import torch.distributed as dist


def build_groups(dp, pp):
    rank = dist.get_rank()
    dp_groups = [dist.new_group(ranks=[d * pp + p for d in range(dp)]) for p in range(pp)]
    pp_groups = [dist.new_group(ranks=[d * pp + p for p in range(pp)]) for d in range(dp)]
    return dp_groups[rank % pp], pp_groups[rank // pp]


def main():
    dist.init_process_group("gloo")
    dp = 2
    pp = dist.get_world_size() // dp
    dp_group, pp_group = build_groups(dp, pp)
    pp_rank = dist.get_rank(group=pp_group)
    pp_world_size = dist.get_world_size(group=pp_group)
    loss = torch.ones(1)
    if pp_rank == pp_world_size - 1:
        dist.all_reduce(loss, group=dp_group)
    has_loss = pp_rank == pp_world_size - 1
    if has_loss:
        dist.all_reduce(loss, group=dp_group)
