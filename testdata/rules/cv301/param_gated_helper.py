# The same helpers called from a rank-0 branch with the parameter true, or
# left at a true default, communicate on rank 0 only.
import torch
import torch.distributed as dist


def save_state_dict(path, state, *, synchronize=True):
    if synchronize:
        dist.barrier()
    torch.save(state, path)


def upload(path, sync=False):
    if not sync:
        return
    dist.barrier()


def save_through(path, state, synchronize):
    save_state_dict(path, state, synchronize=synchronize)


def checkpoint(path, state, flag):
    if dist.get_rank() == 0:
        save_state_dict(path, state)  # want CV301 "barrier"
    if dist.get_rank() == 0:
        upload(path, sync=True)  # want CV301 "barrier"
    if dist.get_rank() == 0:
        save_through(path, state, True)  # want CV301 "barrier"
    if dist.get_rank() == 0:
        save_state_dict(path, state, synchronize=flag)  # want CV301 "barrier"


def save_if_many(path, state, synchronize=True):
    if synchronize and dist.get_world_size() > 1:
        dist.barrier()
    torch.save(state, path)


def checkpoint_conjunction_default(path, state):
    if dist.get_rank() == 0:
        save_if_many(path, state)  # want CV301 "barrier"


def save_params(path, use_checkpoint=False):
    if not use_checkpoint:
        dist.barrier()
    torch.save({}, path)


def fresh_start_on_rank0(path):
    if dist.get_rank() == 0:
        save_params(path)  # want CV301 "barrier .*runs only when `dist.get_rank\(\) == 0` holds"
