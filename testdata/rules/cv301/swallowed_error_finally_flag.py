# The error flag all-reduced in the finally clause meets the collectives
# the other ranks are still issuing in the try body: a rank whose work
# raised skips the gather and goes straight to the all-reduce (the flag
# idiom is safe only when the body issues no collective).
import torch
import torch.distributed as dist


def run_eval(work, device):
    error = torch.tensor([0], device=device)
    try:
        feats = work()
        out = [None] * dist.get_world_size()
        dist.all_gather_object(out, feats)  # want CV301 "all_gather_object .*is skipped on a rank whose work before it raises"
    except Exception:
        error.fill_(1)
    finally:
        dist.all_reduce(error, op=dist.ReduceOp.SUM)
