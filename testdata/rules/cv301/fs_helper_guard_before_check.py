# A resume helper that first returns None on a test of its arguments,
# then None where this host sees no file, and the state otherwise
# (pirlnav's load_interrupted_state): whether the caller got a state is
# still this host's answer. Without the file check the None says only
# what the arguments said.
import os

import torch
import torch.distributed as dist

SLURM_JOBID = os.environ.get("SLURM_JOB_ID")


def load_interrupted_state(filename=None):
    if SLURM_JOBID is None and filename is None:
        return None
    if not os.path.exists(filename):
        return None
    return torch.load(filename, map_location="cpu")


def load_given_state(filename=None):
    if filename is None:
        return None
    return torch.load(filename, map_location="cpu")


def train(ckpt_dir, num_updates, given):
    dist.init_process_group("nccl")
    start_update = 0
    state = load_interrupted_state(os.path.join(ckpt_dir, f"{SLURM_JOBID}.pth"))
    if state is not None:
        start_update = state["requeue_stats"]["start_update"]
    for update in range(start_update, num_updates):
        dist.all_reduce(torch.ones(2, device="cuda"))  # want CV301 "whose bounds depend on a file system check"
    begin = 0
    state = load_given_state(given)
    if state is not None:
        begin = state["start_update"]
    for update in range(begin, num_updates):
        dist.all_reduce(torch.ones(2, device="cuda"))
