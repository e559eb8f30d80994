# The ranks leave while is_sharded is true, and the helper barriers
# exactly then; or they leave on one flag and the helper barriers on
# another.
import torch.distributed as dist


def save_checkpoint(state, path, is_sharded=False):
    if is_sharded:
        dist.barrier()


def save_when_sharded(cfg):
    is_sharded = cfg.use
    if not dist.get_rank() == 0 and is_sharded:
        return
    save_checkpoint({}, "p", is_sharded)  # want CV301 "do not leave early"


def save_other_flag(cfg):
    is_sharded, keep = cfg.use, cfg.keep
    if not dist.get_rank() == 0 and not keep:
        return
    save_checkpoint({}, "p", is_sharded)  # want CV301 "do not leave early"
