# The method that finds the checkpoint broadcasts the step rank 0 found,
# or sets it from the configuration: every rank holds the same step.
import glob
import os

import torch
import torch.distributed as dist


class TrainLoop:
    def __init__(self, model, logdir, cfg):
        self.model, self.logdir, self.cfg, self.resume_step = model, logdir, cfg, 0
        self._agree_on_step()
        if self.resume_step:
            self.ema = self._load_ema()
        self._from_config()
        if self.resume_step:
            self.ema = self._load_ema()

    def _agree_on_step(self):
        step = [0]
        if dist.get_rank() == 0:
            paths = sorted(glob.glob(os.path.join(self.logdir, "model*.pt")))
            step = [int(paths[-1][-9:-3])] if paths else [0]
        dist.broadcast_object_list(step, src=0)
        self.resume_step = step[0]

    def _from_config(self):
        self.resume_step = self.cfg.resume_step

    def _load_ema(self):
        params = [p.detach().clone() for p in self.model.parameters()]
        for p in params:
            dist.broadcast(p, 0)
        return params
