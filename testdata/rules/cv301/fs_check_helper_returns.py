# File-system checks handed back by helpers: a path a loop of is_file()
# checks picks (Meta lingua's CheckpointManager), and a listing two
# helpers deep whose "nothing found" is an empty list (dinov3's resume).
from pathlib import Path

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class CheckpointManager:
    def __init__(self, saves):
        self.existing_saves = saves

    def get_last_step_path(self, dp_rank=0):
        path = None
        for p in reversed(self.existing_saves):
            if (p / f"train_state_{dp_rank:05d}.json").is_file():
                path = p
                break
        return path

    def load(self, state_dict, dp_rank, path=None):
        path = path or self.get_last_step_path(dp_rank=dp_rank)
        if path is None:
            return
        dcp.load(state_dict, checkpoint_id=path)  # want CV301 "load on the default group \(WORLD\) runs only on the ranks that do not leave early"


def find_all(d):
    d = Path(d)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.is_dir())


def find_latest(d):
    ckpts = find_all(d)
    return ckpts[-1] if ckpts else None


def resume(state, ckpt_dir):
    if last := find_latest(ckpt_dir):
        dcp.load(state, checkpoint_id=last)  # want CV301 "load on the default group \(WORLD\)"


def main():
    dist.init_process_group("nccl")
    mgr = CheckpointManager([Path("/ckpt/0000001000")])
    mgr.load({}, dist.get_rank())
    resume({}, "/ckpt")
    dist.barrier()
