# The file system check is one operand of a multi-line `and`: the finding
# names that operand, the condition the collective needs.
import os

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def main(args, state):
    if (
        args.resume
        and os.path.exists(args.ckpt + "/.metadata")
    ):
        dcp.load_state_dict(state_dict=state, storage_reader=dcp.FileSystemReader(args.ckpt))  # want CV301 "runs only when `os.path.exists.args.ckpt"
    dist.barrier()
