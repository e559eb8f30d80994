# The ranks that see the kill-switch file sync once and exit; the others
# go on to an all_reduce. The two paths already differ there, so the
# Megatron save_checkpoint later on the second path (whose collectives
# the tables leave unspecified) does not make them incomparable.
import os
import sys

import torch
import torch.distributed as dist
from megatron.checkpointing import save_checkpoint


def print_datetime(msg):
    dist.barrier()
    if dist.get_rank() == 0:
        print(msg)


def pretrain(kill_switch_file, model, save):
    if kill_switch_file is not None and os.path.exists(kill_switch_file):
        print_datetime("kill switch seen, exiting")
        sys.exit()
    start = torch.zeros(1, dtype=torch.double)
    dist.all_reduce(start, op=dist.ReduceOp.MIN)  # want CV301 "file system"
    print_datetime("after init")
    if save:
        save_checkpoint(model)
