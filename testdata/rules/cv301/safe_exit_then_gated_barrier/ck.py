# The checkpoint helper barriers only when the checkpoint is sharded.
import torch.distributed as dist


def _safe_save(state, path, is_sharded=False):
    def _barrier_if_sharded():
        if is_sharded:
            dist.barrier()

    _barrier_if_sharded()
    write(state, path)
    _barrier_if_sharded()


def save_checkpoint(state, path, is_sharded=False):
    _safe_save(state, path, is_sharded)


def write(state, path):
    pass
