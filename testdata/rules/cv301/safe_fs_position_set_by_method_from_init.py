# The constructor's own loader reads the step from a path every rank is
# given alike (no look at this host's disk), or agrees on it first.
import os

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, ckpt_path, max_steps):
        self.ckpt_path, self.max_steps, self.curr_step = ckpt_path, max_steps, 0
        self.load_checkpoint()

    def load_checkpoint(self):
        if self.ckpt_path is None:
            return
        state = torch.load(self.ckpt_path)
        self.curr_step = state["curr_step"]

    def train(self, t):
        for step in range(self.curr_step, self.max_steps):
            dist.all_reduce(t)


class AgreedTrainer:
    def __init__(self, ckpt_dir, max_steps):
        self.ckpt_dir, self.max_steps = ckpt_dir, max_steps
        self.curr_step = self.agreed_step()

    def agreed_step(self):
        ckpts = sorted(os.listdir(self.ckpt_dir))
        box = [torch.load(os.path.join(self.ckpt_dir, ckpts[-1]))["curr_step"] if ckpts else 0]
        dist.broadcast_object_list(box, src=0)
        return box[0]

    def train(self, t):
        for step in range(self.curr_step, self.max_steps):
            dist.all_reduce(t)
