# An op in the else arm runs where the test fails: the message names the
# test that must hold for it (path is not None).
import os

import torch.distributed as dist


def resume(output_dir):
    dirs = [d for d in os.listdir(output_dir) if d.startswith("checkpoint")]
    path = dirs[-1] if dirs else None
    if path is None:
        print("no checkpoint, starting fresh")
    else:
        print("loading", path)
        dist.barrier()  # want CV301 "runs only when `path is not None` holds"
