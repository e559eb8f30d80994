# The halves' guards differ: with num_gpus == 2 only the others enter a
# barrier, and the leader never releases them.
import torch


def get_detector(url, num_gpus=1, rank=0):
    is_leader = rank == 0
    if not is_leader and num_gpus > 1:
        torch.distributed.barrier()  # want CV301 "runs only when `not is_leader and num_gpus > 1` holds"
    det = load(url)
    if is_leader and num_gpus > 2:
        torch.distributed.barrier()  # want CV301 "runs only when `is_leader and num_gpus > 2` holds"
    return det


def compute(opts, url):
    return get_detector(url, num_gpus=opts.num_gpus, rank=opts.rank)


def load(url):
    return url
