# The group's rank method called: only the group's first member issues
# the all-reduce its other members never join.
import torch.distributed as dist


def train(loss, last_stage):
    dist.init_process_group("nccl")
    dp_group = dist.new_group([0, 1])
    if dp_group.rank() == 0 and last_stage:
        dist.all_reduce(loss, group=dp_group)  # want CV301 "dp_group.rank\(\) == 0"
