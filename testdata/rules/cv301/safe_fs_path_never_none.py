# A path found on this host's disk and then joined (os.path.join never
# returns None) makes `path is None` false on every rank that gets there
# (iVideoGPT's resume); an argument the enclosing test found set is no
# None either.
import os

import torch.distributed as dist
from accelerate import Accelerator


def resume(output_dir, resume):
    accelerator = Accelerator()
    if resume:
        if resume != "latest":
            path = resume
        else:
            dirs = [d for d in os.listdir(output_dir) if d.startswith("checkpoint")]
            path = sorted(dirs)[-1] if len(dirs) > 0 else None
            path = os.path.join(output_dir, path)
        if path is None:
            accelerator.print("no checkpoint, starting fresh")
        else:
            accelerator.load_state(path)
            accelerator.wait_for_everyone()


def tagged(output_dir):
    dirs = os.listdir(output_dir)
    tag = f"{dirs[-1]}" if dirs else "none"
    if tag is not None:
        dist.barrier()
