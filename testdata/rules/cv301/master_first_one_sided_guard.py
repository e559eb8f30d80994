# The release also asks a flag that every rank may hold false: then the
# others wait before the block and the master never releases them.
from contextlib import contextmanager

import torch.distributed as dist


@contextmanager
def master_first(use_cache):
    if dist.get_rank() != 0:
        dist.barrier()  # want CV301 "dist.get_rank\(\) != 0"
    yield
    if use_cache and dist.get_rank() == 0:
        dist.barrier()  # want CV301 "use_cache and dist.get_rank\(\) == 0"


def prepare_data(path, use_cache):
    with master_first(use_cache):
        open(path, "a").close()
