# A second script of the tree, not importing the first: its job meets
# through env:// on several hosts, so its own file check still differs
# between hosts.
import os

import torch
import torch.distributed as dist

if __name__ == "__main__":
    dist.init_process_group("nccl")
    if os.path.exists("resume.pt"):
        dist.broadcast(torch.ones(1, device="cuda"), 0)  # want CV301 "file system check"
    dist.destroy_process_group()
