# A value read from a checkpoint that only the hosts which see the file
# load decides a collective: on a host without the file it keeps its
# default, so the ranks answer the test differently (RigL's pruner state,
# a resume epoch gating validation). Broadcasting the value first makes
# it rank 0's on every rank.
import os

import torch
import torch.distributed as dist


def sparsify_unless_resumed(path):
    state = None
    if os.path.isfile(path):
        ckpt = torch.load(path)
        state = ckpt["pruner"]
    if state is None:
        mask = torch.ones(4, device="cuda")
        dist.broadcast(mask, 0)  # want CV301 "file system check"


def validate_on_schedule(path, every):
    start = 0
    if os.path.exists(path):
        start = torch.load(path)["epoch"]
    if start % every == 0:
        dist.all_reduce(torch.zeros(1, device="cuda"))  # want CV301 "file system check"


def validate_on_agreed_schedule(fabric, path, every):
    start = 0
    if os.path.exists(path):
        start = torch.load(path)["epoch"]
    start = fabric.broadcast(start, src=0)
    if start % every == 0:
        dist.all_reduce(torch.zeros(1, device="cuda"))


def main(fabric):
    dist.init_process_group("nccl")
    sparsify_unless_resumed("ckpt.pt")
    validate_on_schedule("ckpt.pt", 5)
    validate_on_agreed_schedule(fabric, "ckpt.pt", 5)
