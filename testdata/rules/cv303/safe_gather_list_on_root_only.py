# The root-only list given where the rank is the root, and None elsewhere:
# every rank joins the gather. Also an empty list on the others (falsy, so
# torch accepts it), and a list a rank test later takes away.
import torch
import torch.distributed as dist


def gather_conditional(frames, world_size):
    rank = dist.get_rank()
    gathered = [torch.zeros_like(frames) for _ in range(world_size)] if rank == 0 else None
    dist.gather(frames, gathered, dst=0)
    return gathered


def gather_in_arm(frames, world_size):
    gathered = None
    if dist.get_rank() == 0:
        gathered = [torch.zeros_like(frames) for _ in range(world_size)]
    dist.gather(frames, gathered, dst=0)
    return gathered


def gather_taken_back(frames, world_size):
    gathered = [torch.zeros_like(frames) for _ in range(world_size)]
    if dist.get_rank() != 0:
        gathered = None
    dist.gather(frames, gather_list=gathered, dst=0)
    return gathered


def gather_at_call(frames, world_size):
    dist.gather(frames, [torch.zeros_like(frames) for _ in range(world_size)] if dist.get_rank() == 0 else [], dst=0)


def gather_empty(frames):
    dist.gather(frames, [], dst=0)


def gather_to_self(frames, world_size):
    # Each rank its own root (a sequence of turns elsewhere): not this finding.
    gathered = [torch.zeros_like(frames) for _ in range(world_size)]
    dist.gather(frames, gathered, dst=dist.get_rank())


def scatter_object(out, items):
    # scatter_object_list ignores its input list on the other ranks.
    dist.scatter_object_list(out, [items] * 2, src=0)
