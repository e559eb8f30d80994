# Each rank asks its own host's file system; ranks can disagree (R8: a
# network file system's cache showed the checkpoint to some ranks only,
# which then waited in broadcast_object_list for the others).
import os
from pathlib import Path

import torch.distributed as dist


def resume(ckpt_dir):
    if Path(ckpt_dir, "latest").exists():
        state = [None]
        dist.broadcast_object_list(state, src=0)  # want CV301 "a file system check that each rank makes on its own host"
        return state[0]
    return None


def load(folder, states, dcp):
    found = os.path.isdir(folder)
    if not found:
        return False
    dist.barrier()  # want CV301 "runs only on the ranks that do not leave early"
    return True


def decided_in_a_subgroup(ckpt_dir):
    # Broadcast within a subgroup: the same value there only, while the
    # barrier is on the default group.
    group = dist.new_group([0, 1])
    found = [Path(ckpt_dir).exists() if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(found, src=0, group=group)
    if found[0]:
        dist.barrier()  # want CV301 "barrier"


def setup_logs(rank, log_path, resume):
    # open_clip's main(): the master leaves when the log already exists,
    # from inside its own block; the others go on to the DDP construction
    # and wait in its broadcast.
    if rank == 0:
        if os.path.exists(log_path) and not resume:
            print("Experiment already exists")
            return -1
    dist.barrier()  # want CV301 "runs only on the ranks that do not leave early"
    return 0


def checked(flag):
    return bool(flag)


def through_a_helper(path):
    # A program helper that is no broadcast hands the rank's own answer
    # back.
    found = checked(os.path.exists(path))
    if found:
        dist.barrier()  # want CV301 "a file system check"
