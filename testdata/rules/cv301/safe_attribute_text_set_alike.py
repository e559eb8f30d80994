# Both arms of the rank test set the attribute, or every rank sets it
# again after the if: its truth is the same on every rank.
import torch.distributed as dist


def both_arms(cfg):
    if dist.get_rank() == 0:
        cfg.best = "leader"
    else:
        cfg.best = "follower"
    if cfg.best:
        dist.barrier()


def set_again(cfg):
    if dist.get_rank() == 0:
        cfg.note = "rank zero"
    cfg.note = "everyone"
    if cfg.note:
        dist.barrier()
