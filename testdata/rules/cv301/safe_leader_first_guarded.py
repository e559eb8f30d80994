# "Leader goes first" with the same extra guard on both halves: with
# num_gpus > 1 every rank issues one barrier (the others before the load,
# the leader after it), with one GPU none does (stylegan2-ada's
# metric_utils.get_feature_detector).
import torch


def get_detector(url, num_gpus=1, rank=0):
    is_leader = rank == 0
    if not is_leader and num_gpus > 1:
        torch.distributed.barrier()
    det = load(url)
    if is_leader and num_gpus > 1:
        torch.distributed.barrier()
    return det


def compute(opts, url):
    return get_detector(url, num_gpus=opts.num_gpus, rank=opts.rank)


def load(url):
    return url
