# An init under a device-count test in the arm where the launcher's
# variables are missing still makes a job when it names its own
# rendezvous (a TCP address and its rank), or when the test leaves
# RANK set there (an `and` with LOCAL_RANK, which some launchers do not
# set): hosts with other GPU counts then disagree.
import os

import torch
import torch.distributed as dist


def setup_own_rendezvous(rank, world):
    if "RANK" in os.environ or "WORLD_SIZE" in os.environ:
        dist.init_process_group(backend="nccl")
        return True
    elif torch.cuda.device_count() >= 2:
        dist.init_process_group("nccl", init_method="tcp://10.0.0.1:2345", rank=rank, world_size=world)  # want CV301 "device_count\(\) >= 2"
        return True
    return False


def setup_partial_launcher():
    if "RANK" in os.environ and "LOCAL_RANK" in os.environ:
        dist.init_process_group(backend="nccl")
        return True
    elif torch.cuda.device_count() >= 2:
        dist.init_process_group(backend="nccl")  # want CV301 "device_count\(\) >= 2"
        return True
    return False


def setup_sets_env(rank):
    if "RANK" in os.environ:
        dist.init_process_group(backend="nccl")
        return True
    elif torch.cuda.device_count() >= 2:
        os.environ["RANK"] = str(rank)
        dist.init_process_group(backend="nccl")  # want CV301 "device_count\(\) >= 2"
        return True
    return False
