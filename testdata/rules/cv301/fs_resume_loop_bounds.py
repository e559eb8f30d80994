# The step a run resumes from decides how many passes the loop makes, and
# each host finds (or not) the checkpoint on its own disk: ranks on a node
# without it start at 0 and issue more collectives (minimind's resume).
import os

import torch
import torch.distributed as dist


def load_resume(path):
    if os.path.exists(path):
        return torch.load(path, map_location="cpu")
    return None


def train(grad, steps):
    ckp = load_resume("../checkpoints/resume.pth")
    start_step = ckp["step"] if ckp else 0
    for step in range(start_step, steps):
        dist.all_reduce(grad)  # want CV301 "whose bounds depend on a file system check of this host"
    dist.barrier()


def auto_resume(accelerator, output_dir, n):
    # A barrier before the listing agrees on nothing: each host still
    # lists its own directory (1d-tokenizer's auto_resume).
    import glob

    first_epoch = 0
    accelerator.wait_for_everyone()
    ckpts = list(glob.glob(os.path.join(output_dir, "checkpoint*")))
    if len(ckpts) >= 1:
        step = int(sorted(ckpts)[-1].split("-")[-1])
        first_epoch = step // n
    return first_epoch


def train_resumed(accelerator, grad, output_dir, n, epochs):
    first_epoch = auto_resume(accelerator, output_dir, n)
    for epoch in range(first_epoch, epochs):
        dist.all_reduce(grad)  # want CV301 "whose bounds depend on a file system check of this host"


def resume_with_progress(ckpt_dir, epochs):
    from tqdm import tqdm

    first_epoch = 0
    if os.path.exists(os.path.join(ckpt_dir, "last.pt")):
        first_epoch = torch.load(os.path.join(ckpt_dir, "last.pt"))["epoch"] + 1
    for epoch in tqdm(range(first_epoch, epochs)):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "once per element of `tqdm\(range\(first_epoch, epochs\)\)`, whose bounds depend on a file system check"
