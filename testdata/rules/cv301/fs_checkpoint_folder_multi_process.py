# The same folder scan without the single-process assertion: each host
# lists its own folder, and the ranks gather once per checkpoint found.
import glob
import os

import torch
from accelerate import Accelerator


def sample_all(accelerator, model, loader):
    out = []
    for batch in loader:
        out.append(accelerator.gather(model(batch)))
    return out


def evaluate_all(folder, model, loader):
    accelerator = Accelerator()
    for ckpt in sorted(glob.glob(os.path.join(folder, "checkpoint_*"))):
        model.load_state_dict(torch.load(os.path.join(ckpt, "model.bin")))
        sample_all(accelerator, model, loader)  # want CV301 "file system"
