# instructlab's resume: a loader writes the epoch it read from this
# host's newest checkpoint into the arguments (through their __dict__),
# and the training function they are handed loops from that epoch. Hosts
# that find different checkpoints run different numbers of epochs.
from pathlib import Path

import torch
import torch.distributed as dist


def load_latest(args):
    out = Path(args.output_dir) / "full_state"
    if not out.is_dir():
        return
    ckpts = sorted(out.iterdir(), reverse=True)
    if len(ckpts) == 0:
        return
    meta = torch.load(ckpts[0] / "meta.pt")
    args.__dict__["current_epoch"] = meta["current_epoch"] + 1


def train(args):
    x = torch.ones(1, device="cuda")
    for epoch in range(args.current_epoch, args.num_epochs):
        dist.all_reduce(x)


def main(args):
    dist.init_process_group("nccl")
    load_latest(args)
    train(args)  # want CV301 "once per element of `range.args.current_epoch, args.num_epochs.`"
