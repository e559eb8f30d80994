# The same workers meeting at an address from the command line: ranks may
# run on several machines, whose file systems can disagree.
import glob
import os

import torch
import torch.distributed as dist


def worker(gpu, ngpus, addr, save_path, max_epoch):
    os.environ["MASTER_ADDR"] = addr
    dist.init_process_group(backend="nccl", init_method="tcp://10.0.0.1:23456", world_size=ngpus, rank=gpu)
    it = 1
    files = sorted(glob.glob("%s/model0*.model" % save_path))
    if len(files) >= 1:
        it = int(os.path.splitext(os.path.basename(files[-1]))[0][5:]) + 1
    for it in range(it, max_epoch + 1):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check"
