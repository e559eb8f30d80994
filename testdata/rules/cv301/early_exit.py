import torch.distributed as dist


def finalize(stats):
    if dist.get_rank() != 0:
        return
    dist.all_reduce(stats)  # want CV301 "do not leave early"
