# Two signal files checked in an if/elif chain, a barrier in each arm: a
# host that sees neither file issues no barrier while a host that sees
# either waits in one (qlora-pipe's saver).
import os
from pathlib import Path

import torch.distributed as dist


def process_step(save_root):
    save_file = Path(save_root) / "save"
    quit_file = Path(save_root) / "save_quit"
    if save_file.exists() and save_file.is_file():
        dist.barrier()  # want CV301 "runs only when `save_file.exists\(\)` holds"
        if dist.get_rank() == 0:
            os.remove(save_file)
    elif quit_file.exists() and quit_file.is_file():
        dist.barrier()  # want CV301 "runs only when `quit_file.exists\(\)` holds"
        if dist.get_rank() == 0:
            os.remove(quit_file)


def process_step_decided(save_root, flags):
    # The answers were broadcast from rank 0 first: every rank takes the
    # same arm.
    save_file = Path(save_root) / "save"
    found = [save_file.exists()]
    dist.broadcast_object_list(found, src=0)
    if found[0]:
        dist.barrier()
    elif flags.quit:
        dist.barrier()
