# The group keeps every second rank, but every fourth rank uses it: the
# members with rank % 4 == 2 never issue the all_reduce the others wait in.
import torch
import torch.distributed as dist


def main():
    world = dist.get_world_size()
    evens = dist.new_group([r for r in range(world) if r % 2 == 0])
    if dist.get_rank() % 4 == 0:
        dist.all_reduce(torch.ones(1), group=evens)  # want CV301 "runs only when"
