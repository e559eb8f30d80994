# A generator polls this host's checkpoint directory and yields each new
# checkpoint (the-algorithm-ml's checkpoints_iterator): every pass of the
# loop over it communicates, and hosts see new files at their own
# moments, so ranks run their own number of passes.
import os
import time

import torch
import torch.distributed as dist


def checkpoints_iterator(save_dir, timeout=1800):
    last = None
    while True:
        stop = time.time() + timeout
        while True:
            ckpts = sorted(os.listdir(save_dir))
            if ckpts and ckpts[-1] != last:
                break
            if time.time() > stop:
                return
            time.sleep(30)
        last = ckpts[-1]
        yield os.path.join(save_dir, last)


def only_evaluate(model, save_dir):
    for path in checkpoints_iterator(save_dir):
        model.load_state_dict(torch.load(path))
        t = torch.zeros(1)
        dist.all_reduce(t)  # want CV301 "once per element of `checkpoints_iterator\(save_dir\)`, whose bounds depend on a file system check"
