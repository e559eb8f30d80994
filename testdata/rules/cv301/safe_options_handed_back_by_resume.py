# A resume helper under a host's file check hands the options object back
# unchanged beside what it read (`stats, opt = resume(path, opt)`): opt is
# the object every rank parsed from its command line, so a test of one of
# its settings asks the same everywhere, before the check and after it.
import argparse
import os

import torch
import torch.distributed as dist


def resume(path, opt):
    ckpt = torch.load(path, map_location="cpu")
    stats = ckpt["stats"]
    return stats, opt


def reload(path, opt):
    torch.load(path, map_location="cpu")
    return opt


def setup(opt):
    if opt.distributed:
        dist.broadcast(torch.ones(1), 0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--distributed", action="store_true")
    p.add_argument("--save_dir", default="out")
    opt = p.parse_args()
    dist.init_process_group("gloo")
    setup(opt)
    stats = {}
    latest = os.path.join(opt.save_dir, "latest.pth")
    if os.path.isfile(latest):
        stats, opt = resume(latest, opt)
    if os.path.isfile(latest + ".bak"):
        opt = reload(latest + ".bak", opt)
    if opt.distributed:
        dist.all_reduce(torch.ones(1))
    print(stats)
