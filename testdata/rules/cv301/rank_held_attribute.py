# An attribute that only rank 0 keeps (None on the others), set in
# __init__ and tested in another method: the test is the rank test
# (FrameDiff's "unset checkpoint path if rank is not 0", whose evaluation
# then runs on rank 0 alone).
import torch.distributed as dist


class Experiment:
    def __init__(self, ckpt_dir):
        dist.init_process_group(backend="nccl")
        self.ckpt_dir = ckpt_dir
        if dist.get_rank() != 0:
            self.ckpt_dir = None

    def evaluate(self, x):
        dist.all_reduce(x)
        return x

    def train_epoch(self, loader):
        for step, x in enumerate(loader):
            if self.ckpt_dir is not None and step % 100 == 0:
                self.evaluate(x)  # want CV301 "runs only when `self.ckpt_dir is not None and step % 100 == 0` holds"


class Logger:
    def __init__(self, out):
        self.out = out if dist.get_rank() == 0 else None

    def log(self, x):
        if self.out:
            dist.all_reduce(x)  # want CV301 "runs only when `self.out` holds"
