# Fabric.load restores through the strategy and then waits in a barrier;
# a host that does not see the checkpoint returns before it (pico-train's
# resume, with "latest" made by rank 0 alone).
import os

import lightning as L
import torch


def load_checkpoint(fabric, ckpt_dir, model, optimizer):
    path = os.path.join(ckpt_dir, "latest")
    if not os.path.exists(path):
        return None
    state = {"model": model, "optimizer": optimizer}
    fabric.load(path, state)  # want CV301 "Fabric.load .* runs only on the ranks that do not leave early"
    return True


def main():
    fabric = L.Fabric(strategy="deepspeed_stage_2", devices=2, num_nodes=2)
    fabric.launch()
    model, optimizer = fabric.setup(torch.nn.Linear(8, 8), torch.optim.AdamW(torch.nn.Linear(8, 8).parameters()))
    load_checkpoint(fabric, "runs/r1/checkpoints", model, optimizer)
    fabric.barrier()
