# The script asserts a single process before it communicates
# (`assert accelerator.num_processes == 1`): no other rank exists for a
# file check to split from (DMD2's checkpoint-folder evaluation).
import glob
import os

import torch
from accelerate import Accelerator


def sample(accelerator, model, loader):
    out = []
    for batch in loader:
        out.append(accelerator.gather(model(batch)))
    return out


def evaluate(folder, model, loader):
    accelerator = Accelerator()
    assert accelerator.num_processes == 1, "only support single gpu for now"
    for ckpt in sorted(glob.glob(os.path.join(folder, "checkpoint_*"))):
        model.load_state_dict(torch.load(os.path.join(ckpt, "model.bin")))
        sample(accelerator, model, loader)
