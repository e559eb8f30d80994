# A helper that communicates only when its own parameter says so, called
# from a rank-0 branch with that parameter false, issues nothing there
# (OLMo's save_state_dict(..., synchronize=False) under get_global_rank()
# == 0).
import torch
import torch.distributed as dist


def save_state_dict(path, state, *, synchronize=True):
    if synchronize:
        dist.barrier()
    torch.save(state, path)
    if synchronize:
        dist.barrier()


def upload(path, sync=False):
    if not sync:
        return
    dist.barrier()


def write_log(path, text, gather=None):
    if gather:
        dist.all_gather_object([None], text)
    else:
        print(text)


def save_through(path, state, synchronize):
    save_state_dict(path, state, synchronize=synchronize)


def checkpoint(path, state):
    if dist.get_rank() == 0:
        save_state_dict(path, state, synchronize=False)
    if dist.get_rank() == 0:
        upload(path)
    if dist.get_rank() == 0:
        write_log(path, "saved")
    if dist.get_rank() == 0:
        save_through(path, state, False)
    dist.barrier()


def save_if_many(path, state, synchronize=True):
    # The gate in a conjunction: no barrier unless synchronize holds.
    if synchronize and dist.get_world_size() > 1:
        dist.barrier()
    torch.save(state, path)


def checkpoint_conjunctions(path, state):
    if dist.get_rank() == 0:
        save_if_many(path, state, synchronize=False)


def save_params(path, use_checkpoint=False):
    # The barrier runs only where the flag is false.
    if not use_checkpoint:
        dist.barrier()
    torch.save({}, path)


def save_after_early_out(path, use_checkpoint=False):
    if use_checkpoint:
        return
    dist.barrier()


def checkpoint_on_rank0(path):
    if dist.get_rank() == 0:
        save_params(path, use_checkpoint=True)
        save_after_early_out(path, True)
