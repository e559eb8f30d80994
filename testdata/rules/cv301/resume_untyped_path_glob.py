# The newest checkpoint is picked from a listing through a receiver the
# analysis cannot type (a parameter annotated `out_dir: Path`): each host
# lists its own directory (Samba's pretrain.py, reduced).
from pathlib import Path

import torch
import torch.distributed as dist


def main(out_dir: Path, model, loader, max_iters):
    dist.init_process_group("nccl")
    resume = sorted(out_dir.glob("*.pth"))[-1]
    start = torch.load(resume)["iter_num"]
    for it in range(start, max_iters):
        loss = model(next(loader))
        dist.all_reduce(loss)  # want CV301 "whose bounds depend on a file system check of this host"
