# The kill-switch decision is made on rank 0 and broadcast before anyone
# leaves; a missing checkpoint directory fails the job (raise) rather than
# letting one rank skip the load.
import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def train(loader, stop_file):
    for t in loader:
        dist.all_reduce(t)
        stop = torch.tensor([int(os.path.exists(stop_file))], device="cuda")
        dist.broadcast(stop, src=0)
        if stop.item():
            break


def load(state_dict, path):
    if not os.path.isdir(path):
        raise FileNotFoundError(path)
    dcp.load(state_dict, checkpoint_id=path)
    dist.barrier()
