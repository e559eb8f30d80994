# The launch config is kept on self before the local is rebound to a
# config merged from a checkpoint found by listing a directory: the field
# holds the launch config, the same on every rank (FrameDiff's
# Experiment.__init__).
import os

import torch
import torch.distributed as dist
from omegaconf import OmegaConf
from torch.nn.parallel import DistributedDataParallel as DDP


class Experiment:
    def __init__(self, conf):
        self._exp_conf = conf.experiment          # original config object
        dist.init_process_group(backend="nccl")
        if conf.experiment.warm_start:
            ckpt_dir = conf.experiment.warm_start
            files = [x for x in os.listdir(ckpt_dir) if x.endswith(".pth")]
            ckpt = torch.load(os.path.join(ckpt_dir, files[0]))
            conf = OmegaConf.merge(conf, ckpt["conf"])  # new object, local only
        self._model = torch.nn.Linear(4, 4)

    def start_training(self):
        if self._exp_conf.use_gpu:                # same value on every rank
            self._model = DDP(self._model.cuda())
