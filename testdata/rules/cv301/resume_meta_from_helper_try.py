# The start epoch comes from metadata.json that a checkpoint manager's
# method reads only when this host finds it (after loading the
# framework's state), inside a try whose handler starts from scratch:
# ranks on hosts that see different files run different epoch counts
# (ReFocused-Ai's train.py). The handler swallows an error of the load
# itself on one rank, which then trains while the others still load.
import argparse
import json
import os

import torch
from accelerate import Accelerator


class CheckpointManager:
    def __init__(self, local_dir):
        self.local_dir = local_dir

    def load_checkpoint(self, accelerator, name):
        d = os.path.join(self.local_dir, name)
        accelerator.load_state(d)
        metadata = None
        p = os.path.join(d, "metadata.json")
        if os.path.exists(p):
            with open(p) as f:
                metadata = json.load(f)
        return {"checkpoint_info": {"epoch": metadata.get("epoch", 0) if metadata else 0}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    accelerator = Accelerator()
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = accelerator.prepare(model, opt)
    mgr = CheckpointManager("./checkpoints")
    starting_epoch = 0
    if args.resume:
        try:
            data = mgr.load_checkpoint(accelerator, args.resume)  # want CV301 "skipped on a rank whose work before it raises"
            if data and data.get("checkpoint_info"):
                starting_epoch = data["checkpoint_info"].get("epoch", 0)
        except Exception:
            starting_epoch = 0
    for epoch in range(starting_epoch, 100):
        loss = model(torch.randn(2, 4, device=accelerator.device)).sum()  # want CV301 "whose bounds depend on a file system check of this host"
        accelerator.backward(loss)
        opt.step()
        if epoch % 10 == 0:
            if accelerator.is_main_process:
                accelerator.save_state("ckpt")  # want CV301 "runs only when `accelerator.is_main_process` holds"
