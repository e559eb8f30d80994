# A resume helper returns early when this host's glob finds no
# checkpoint; past it, an FSDP model's load_state_dict all-gathers each
# unit's parameters (its pre-load hook), so the hosts that found one issue
# collectives the others never do (UniAudio's maybe_resume_checkpoint).
from pathlib import Path

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def maybe_resume(exp_dir, model):
    ckpts = sorted(Path(exp_dir).glob("ep*.checkpoint"))
    if len(ckpts) == 0:
        return
    state = torch.load(str(ckpts[-1]), map_location="cpu")
    model.load_state_dict(state["model"])  # want CV301 "FullyShardedDataParallel.load_state_dict on the default group \(WORLD\) runs only on the ranks that do not leave early"


def main(exp_dir):
    dist.init_process_group("nccl")
    model = FSDP(torch.nn.Linear(8, 8).cuda())
    maybe_resume(exp_dir, model)


def resume_everywhere(path, model):
    # Every rank loads the same file: nothing is skipped.
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])


def main_everywhere(path):
    dist.init_process_group("nccl")
    model = FSDP(torch.nn.Linear(8, 8).cuda())
    resume_everywhere(path, model)
