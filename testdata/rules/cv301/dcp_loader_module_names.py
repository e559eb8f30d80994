# torch.distributed.checkpoint's loader module and the names before
# torch 2.2 are the same collectives as dcp.load / dcp.save.
import os

import torch.distributed as dist
from torch.distributed.checkpoint import save_state_dict
from torch.distributed.checkpoint.state_dict_loader import load


def resume(sd, ckpt):
    if os.path.exists(os.path.join(ckpt, "state.json")):
        load(sd, checkpoint_id=ckpt)  # want CV301 "load on the default group"
    dist.barrier()


def save(sd, writer):
    if dist.get_rank() == 0:
        save_state_dict(sd, writer)  # want CV301 "save_state_dict"
