# init_method="env://" with MASTER_ADDR from the command line: the ranks
# may run on several machines, whose file systems can disagree.
import glob
import os
import sys

import torch.distributed as dist


def worker(rank, world, save_path, max_epoch):
    dist.init_process_group(backend="nccl", init_method="env://", world_size=world, rank=rank)
    it = 1
    files = sorted(glob.glob("%s/G_*.pth" % save_path))
    if files:
        it = int(files[-1][-8:-4]) + 1
    for it in range(it, max_epoch + 1):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check"


if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = sys.argv[1]
    worker(int(sys.argv[2]), int(sys.argv[3]), "./logs", 10)
