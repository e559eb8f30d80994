# The process group is made only when the process sees several GPUs, and
# the final barrier is behind the same test: every member of the group
# passed it, so every member runs the barrier (OpenOCR's trainer). A
# process that answered otherwise never joined the group.
import os

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self):
        self.local_rank = int(os.environ.get("LOCAL_RANK", 0))
        if torch.cuda.device_count() > 1:
            dist.init_process_group(backend="nccl")
            torch.cuda.set_device(self.local_rank)
            self.distributed = True
        else:
            self.distributed = False

    def train(self):
        if torch.cuda.device_count() > 1:
            dist.barrier()
            dist.destroy_process_group()


if __name__ == "__main__":
    Trainer().train()
