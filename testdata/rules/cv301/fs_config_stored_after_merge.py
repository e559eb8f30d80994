# The hazardous neighbour of safe_fs_config_stored_before_merge.py: the
# field is stored after the merge, so it holds what this host's listing
# found.
import os

import torch
import torch.distributed as dist
from omegaconf import OmegaConf
from torch.nn.parallel import DistributedDataParallel as DDP


class Experiment:
    def __init__(self, conf):
        dist.init_process_group(backend="nccl")
        if conf.experiment.warm_start:
            ckpt_dir = conf.experiment.warm_start
            files = [x for x in os.listdir(ckpt_dir) if x.endswith(".pth")]
            ckpt = torch.load(os.path.join(ckpt_dir, files[0]))
            conf = OmegaConf.merge(conf, ckpt["conf"])  # new object, local only
        self._exp_conf = conf.experiment          # merged from this host's listing
        self._model = torch.nn.Linear(4, 4)

    def start_training(self):
        if self._exp_conf.use_gpu:                # same value on every rank
            self._model = DDP(self._model.cuda())  # want CV301 "DistributedDataParallel on the default group \(WORLD\) runs only when `self._exp_conf.use_gpu` holds, which depends on a file system check"
