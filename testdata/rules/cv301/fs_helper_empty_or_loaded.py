# A resume helper returns the loaded checkpoint where this host finds one
# and an empty dict otherwise (cvpods' resume_or_load): the iteration the
# caller reads from it is this host's answer, and the loop that starts
# there runs a different number of passes on a host that sees no file.
# A helper whose empty answer depends only on its arguments says nothing
# of the host.
import os

import torch
import torch.distributed as dist


def resume_or_load(out, resume=True):
    if resume and os.path.exists(os.path.join(out, "last_checkpoint")):
        return torch.load(os.path.join(out, "model_last.pth"))
    return {}


def load_if_asked(path, resume):
    if not resume:
        return {}
    return torch.load(path)


def main(out, resume):
    dist.init_process_group("nccl")
    start_iter = resume_or_load(out).get("iteration", -1) + 1
    for it in range(start_iter, 1000):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "whose bounds depend on a file system check"
    start = load_if_asked(out + "/model_last.pth", resume).get("iteration", 0)
    for it in range(start, 1000):
        dist.all_reduce(torch.ones(1, device="cuda"))
