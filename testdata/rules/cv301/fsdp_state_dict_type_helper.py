# A save helper, analysed without a caller that passes the wrapped model:
# FSDP.state_dict_type(model, FULL_STATE_DICT, …) takes a module holding
# FSDP modules, so model.state_dict() inside it all-gathers on every rank.
# Rank 0 leaving early when the file exists leaves the others in the
# all-gather (InstructLLaMA's save_full_state_model_checkpoint). A helper
# that every rank runs through, and a state_dict() outside such a block on
# a module the analysis knows nothing of, stay silent.
from pathlib import Path

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import FullStateDictConfig, StateDictType


def save_full_state(model, rank, path, overwrite=False):
    path = Path(path)
    if rank == 0:
        if not overwrite and path.exists():
            return
    with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=True)):
        state = model.state_dict()  # want CV301 "FullyShardedDataParallel.state_dict .*do not leave early"
    if rank == 0:
        torch.save(state, path)


def save_every_rank(model, rank, path):
    with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=True)):
        state = model.state_dict()
    if rank == 0:
        torch.save(state, path)


def save_plain(model, rank, path):
    if rank != 0:
        return
    torch.save(model.state_dict(), path)
