# A checkpointer's resume() sets self._step from the newest file of this
# host's listing, and the trainer reads it back through a property
# (spidr's Checkpointer.step): the loop bound is this host's answer.
import glob

import torch
import torch.distributed as dist


class Ckpt:
    def __init__(self, d):
        self.d = d
        self._step = 0

    @property
    def step(self):
        return self._step

    def resume(self):
        files = sorted(glob.glob(self.d + "/step_*.pt"))
        if files:
            self._step = torch.load(files[-1])["step"]


def train(d, max_steps):
    ck = Ckpt(d)
    ck.resume()
    step = ck.step
    while step < max_steps:
        x = torch.ones(1, device="cuda")
        dist.all_reduce(x)  # want CV301 "file system"
        step += 1


def agreed(d, max_steps):
    # The step is broadcast from rank 0 before it bounds the loop.
    ck = Ckpt(d)
    ck.resume()
    box = [ck.step]
    dist.broadcast_object_list(box, src=0)
    step = box[0]
    while step < max_steps:
        x = torch.ones(1, device="cuda")
        dist.all_reduce(x)
        step += 1
