# The resumed position agreed before it bounds the loop (rank 0's,
# broadcast), a loader method handed something other than the checked
# path, and a property that returns no attribute the loader set.
import glob
import os

import torch
import torch.distributed as dist


def main(ckpt_dir, model, optimizer, total_epochs):
    dist.init_process_group("nccl")
    start_epoch = 0
    ckpt_list = glob.glob(os.path.join(ckpt_dir, "checkpoint_epoch_*.pth"))
    if len(ckpt_list) > 0:
        start_epoch = model.load_params_with_optimizer(ckpt_list[-1], optimizer=optimizer)
    t = torch.tensor([start_epoch])
    dist.broadcast(t, src=0)
    for epoch in range(int(t.item()), total_epochs):
        dist.barrier()


def other_arg(ckpt_dir, model, pretrained, total_epochs):
    dist.init_process_group("nccl")
    start_epoch = 0
    if os.path.exists(ckpt_dir):
        start_epoch = model.load_pretrained(pretrained)
    for epoch in range(start_epoch, total_epochs):
        dist.barrier()


class Trainer:
    def __init__(self, model, max_epoch):
        self.model = model
        self._epoch = 0
        self._max = max_epoch

    @property
    def last(self):
        return self._max

    def load_checkpoint(self, ckpt_file):
        self._epoch = torch.load(ckpt_file)["epoch"]


def resume_main(path, model):
    dist.init_process_group("nccl")
    trainer = Trainer(model, 10)
    if os.path.exists(path):
        trainer.load_checkpoint(path)
    for epoch in range(0, trainer.last):
        dist.barrier()
