# torch.distributed.checkpoint.state_dict's helpers communicate when asked
# for a full state dict (all-gathering the shards) or to broadcast rank
# 0's copy: only some ranks calling them hangs the others.
import os

import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_state_dict,
    set_model_state_dict,
)


def save(model, optimizer, path):
    if dist.get_rank() == 0:
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        model_sd, optim_sd = get_state_dict(model, optimizers=optimizer, options=options)  # want CV301 "get_state_dict on the default group \(WORLD\) runs only when `dist.get_rank\(\) == 0` holds"
        print(path, len(model_sd), len(optim_sd))
    dist.barrier()


def export(model):
    if dist.get_rank() == 0:
        sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))  # want CV301 "get_model_state_dict on the default group \(WORLD\) runs only when"
        print(len(sd))
    dist.barrier()


def resume(model, path, loaded):
    # Only the hosts that see the checkpoint take part in the broadcast.
    if os.path.exists(path):
        set_model_state_dict(model, loaded, options=StateDictOptions(broadcast_from_rank0=True, full_state_dict=True))  # want CV301 "set_model_state_dict on the default group \(WORLD\) runs only when `os.path.exists\(path\)` holds, a file system check"
    dist.barrier()
