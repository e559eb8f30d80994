# The path is None on one path through the if and joined on the other:
# whether it is None is still the listing's answer.
import os

import torch.distributed as dist


def resume(output_dir, fresh):
    dirs = os.listdir(output_dir)
    path = dirs[-1] if dirs else None
    if path is None or fresh:
        path = None
    else:
        path = os.path.join(output_dir, path)
    if path is not None:
        dist.barrier()  # want CV301 "runs only when `path is not None` holds, which depends on a file system check"
