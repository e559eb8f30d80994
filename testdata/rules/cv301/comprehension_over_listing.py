# The comprehension iterates this host's directory listing itself
# (safe_comprehension_shadows_loop_variable.py only reuses the name).
import os

import torch.distributed as dist


def main(path, shared):
    experts = {k: 1 for k in os.listdir(path) if k not in shared}
    if len(experts) > 0:
        dist.gather_object("m", None)  # want CV301 "gather_object on the default group \(WORLD\) runs only when `len\(experts\) > 0` holds, which depends on a file system check"


def inner_shadow(path, names, t):
    k = os.path.exists(path)
    flags = [k for k in names]  # the comprehension's own k
    found = [k for n in names]  # the outer k: this host's answer
    if found:
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group \(WORLD\) runs only when `found` holds"
    return flags
