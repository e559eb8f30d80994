# The constructor calls a method that sets the resume step from the name
# of the newest checkpoint this host's glob finds (`int(ckpt[-9:-3])`),
# then broadcasts the EMA parameters only where it resumed (MM-Diffusion's
# TrainLoop): hosts that see different files issue different numbers of
# broadcasts.
import glob
import os

import torch.distributed as dist


def find_resume_checkpoint(logdir):
    steps = [int(p[-9:-3]) for p in glob.glob(os.path.join(logdir, "model*.pt"))]
    return os.path.join(logdir, f"model{max(steps):06d}.pt") if steps else None


class TrainLoop:
    def __init__(self, model, logdir):
        self.model, self.logdir, self.resume_step = model, logdir, 0
        self._load_and_sync()
        if self.resume_step:
            self.ema = self._load_ema()  # want CV301 "depends on a file system check"

    def _load_and_sync(self):
        ckpt = find_resume_checkpoint(self.logdir)
        if ckpt:
            self.resume_step = int(ckpt[-9:-3])

    def _load_ema(self):
        params = [p.detach().clone() for p in self.model.parameters()]
        for p in params:
            dist.broadcast(p, 0)
        return params
