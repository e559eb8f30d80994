# A list rebound in the one arm of a rank test (no else) keeps its old
# length on the other ranks: a loop over it issues its collectives a
# different number of times on each side.
import glob

import torch.distributed as dist


def evaluate(ckpt):
    dist.barrier()


def eval_checkpoints(cfg):
    ckpts = sorted(glob.glob(cfg.pattern))
    if dist.get_rank() == 0:
        ckpts = [ckpts[-1]]
    for c in ckpts:
        evaluate(c)  # want CV301 "once per element of `ckpts`"


def best_only(cfg):
    best = None
    if dist.get_rank() == 0:
        best = "x"
    checkpoints = cfg.all_ckpts
    if best:
        checkpoints = [best]
    for c in checkpoints:
        evaluate(c)  # want CV301 "once per element of `checkpoints`"
