# A step resumed from a checkpoint found on this host bounds a while loop
# that communicates every pass: hosts that see different checkpoints run
# different numbers of passes (OpenSphere's trainer; NAFNet's auto-resume
# from a directory listing of the training states).
import os

import torch
import torch.distributed as dist


def run(ckpt, max_step):
    step = 0
    if os.path.isfile(ckpt):
        step = torch.load(ckpt, map_location="cpu")["step"]
    while step <= max_step:
        step += 1
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "is issued once per pass of `while step <= max_step`, whose bounds depend on a file system check"


def auto_resume(total_iters, folder):
    states = os.listdir(folder)
    resume_state = None
    if len(states) > 0:
        resume_state = torch.load(os.path.join(folder, max(states)))
    current_iter = resume_state["iter"] if resume_state else 0
    loss = torch.zeros(1, device="cuda")
    while current_iter <= total_iters:
        current_iter += 1
        dist.all_reduce(loss)  # want CV301 "once per pass of `while current_iter <= total_iters`"
