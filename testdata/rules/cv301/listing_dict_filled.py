# A dict filled in a loop over this host's directory listing holds this
# host's file names: the step read from the newest checkpoint it names
# bounds a loop of collectives, which hosts that see different files run
# a different number of times (xyfJASON's find_resume_checkpoint).
import os

import torch
import torch.distributed as dist


def resume(exp_dir):
    d = {}
    for name in os.listdir(exp_dir):
        if name.startswith("step"):
            d[int(name[4:])] = name
    ckpt_path = os.path.join(exp_dir, d[sorted(d)[-1]])
    step = torch.load(os.path.join(ckpt_path, "meta.pt"))["step"] + 1
    while step < 1000:
        x = torch.ones(1, device="cuda")
        dist.all_reduce(x)  # want CV301 "once per pass of `while step < 1000`"
        step += 1
