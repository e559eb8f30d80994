# `dp_group.rank == 0` compares the group's rank method, not called, with
# 0: a bound method equals no number, so no rank takes the arm and none
# issues its all-reduces (OpenCastKit's train loop, a bug of its own but
# no hang). Called, as `dp_group.rank()`, it is the rank in the group.
import torch.distributed as dist


def train(loss, count, last_stage):
    dist.init_process_group("nccl")
    dp_group = dist.new_group([0, 1])
    pp_group = dist.new_group([0, 2])
    if dp_group.rank == 0 and last_stage:
        dist.all_reduce(loss, group=dp_group)
        dist.all_reduce(count, group=dp_group)
    dist.all_reduce(loss, group=pp_group)
