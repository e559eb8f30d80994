# The ranks agree on whether the checkpoint is there (rank 0 looks and
# broadcasts), so every rank loads or none does.
import os

import lightning as L
import torch


def load_checkpoint(fabric, ckpt_dir, model, optimizer):
    path = os.path.join(ckpt_dir, "latest")
    found = fabric.broadcast(os.path.exists(path), src=0)
    if not found:
        return None
    state = {"model": model, "optimizer": optimizer}
    fabric.load(path, state)
    return True


def main():
    fabric = L.Fabric(strategy="deepspeed_stage_2", devices=2, num_nodes=2)
    fabric.launch()
    model, optimizer = fabric.setup(torch.nn.Linear(8, 8), torch.optim.AdamW(torch.nn.Linear(8, 8).parameters()))
    load_checkpoint(fabric, "runs/r1/checkpoints", model, optimizer)
    fabric.barrier()
