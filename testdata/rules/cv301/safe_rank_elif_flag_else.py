# The same chain with an else that issues the collective too, and one
# whose elif asks whether the job is distributed at all.
import torch.distributed as dist


def main(cfg, t):
    if dist.get_rank() == 0:
        dist.all_reduce(t)
    elif cfg.flag:
        dist.all_reduce(t)
    else:
        dist.all_reduce(t)


def single(cfg, t):
    if cfg.sync_first:
        dist.all_reduce(t)
    elif dist.is_initialized():
        dist.all_reduce(t)
