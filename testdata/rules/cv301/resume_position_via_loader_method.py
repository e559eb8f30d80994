# The epoch a run resumes from, read under a file check of this host, also
# when a method the program does not define loads it from the checked
# path (ST3D's load_params_with_optimizer), or when a property of the
# program's trainer returns the attribute its loader set (TaBERT): hosts
# that see different checkpoints run different numbers of epochs.
import glob
import os
from pathlib import Path

import torch
import torch.distributed as dist


def train(model, loader, start_epoch, total_epochs):
    for epoch in range(start_epoch, total_epochs):
        dist.barrier()  # want CV301 "loop bounds|bounds depend"


def main(ckpt_dir, model, optimizer, loader, total_epochs):
    dist.init_process_group("nccl")
    start_epoch = it = 0
    ckpt_list = glob.glob(os.path.join(ckpt_dir, "checkpoint_epoch_*.pth"))
    if len(ckpt_list) > 0:
        it, start_epoch = model.load_params_with_optimizer(ckpt_list[-1], optimizer=optimizer)
    train(model, loader, start_epoch, total_epochs)


class Trainer:
    def __init__(self, model):
        self.model = model
        self._epoch = 0

    @property
    def epoch(self):
        return self._epoch

    def load_checkpoint(self, ckpt_file):
        state = torch.load(ckpt_file)
        self._epoch = state["trainer_state"]["epoch"]


def resume_main(output_dir, model, max_epoch):
    dist.init_process_group("nccl")
    trainer = Trainer(model)
    checkpoint_file = Path(output_dir) / "model.ckpt.bin"
    if checkpoint_file.exists():
        trainer.load_checkpoint(checkpoint_file)
    for epoch in range(trainer.epoch, max_epoch):
        dist.barrier()  # want CV301 "loop bounds|bounds depend"
