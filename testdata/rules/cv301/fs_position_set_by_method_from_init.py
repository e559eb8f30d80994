# The constructor calls the instance's own loader, which picks the latest
# checkpoint from this host's listing and stores the step on the
# instance: the training loop another method runs from that step makes as
# many passes as this host's disk says (TabICL's trainer).
import os

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, ckpt_dir, max_steps):
        self.ckpt_dir, self.max_steps, self.curr_step = ckpt_dir, max_steps, 0
        self.load_checkpoint()

    def load_checkpoint(self):
        ckpts = [f for f in os.listdir(self.ckpt_dir) if f.endswith(".ckpt")]
        if not ckpts:
            return
        state = torch.load(os.path.join(self.ckpt_dir, sorted(ckpts)[-1]))
        self.curr_step = state["curr_step"]

    def train(self, t):
        for step in range(self.curr_step, self.max_steps):
            dist.all_reduce(t)  # want CV301 "range\(self.curr_step, self.max_steps\)`, whose bounds depend on a file system check"
