# guided-diffusion's TrainLoop, with a find_resume_checkpoint that globs
# this host's log directory (MM-Diffusion): the constructor calls a
# method that sets the resume step from the name of the checkpoint it
# found, parsed by a helper, and then broadcasts the EMA parameters only
# where it resumed.
import glob
import os

import torch.distributed as dist


def find_resume_checkpoint(logdir):
    paths = sorted(glob.glob(os.path.join(logdir, "model*.pt")))
    return paths[-1] if paths else None


def parse_resume_step_from_filename(filename):
    split = filename.split("model")
    if len(split) < 2:
        return 0
    split1 = split[-1].split(".")[0]
    try:
        return int(split1)
    except ValueError:
        return 0


class TrainLoop:
    def __init__(self, model, logdir):
        self.model, self.logdir, self.resume_step = model, logdir, 0
        self._load_and_sync_parameters()
        if self.resume_step:
            self.ema = self._load_ema()  # want CV301 "depends on a file system check"

    def _load_and_sync_parameters(self):
        resume_checkpoint = find_resume_checkpoint(self.logdir)
        if resume_checkpoint:
            self.resume_step = parse_resume_step_from_filename(resume_checkpoint)

    def _load_ema(self):
        params = [p.detach().clone() for p in self.model.parameters()]
        for p in params:
            dist.broadcast(p, 0)
        return params
