# The finally clause releases on the wrong ranks (the test is not the
# opposite one): ranks other than 0 wait twice, rank 0 never.
import contextlib
import os

import torch.distributed as dist


@contextlib.contextmanager
def main_process_first(local_rank: int):
    try:
        if local_rank > 0:
            dist.barrier()  # want CV301 "runs only when `local_rank > 0` holds"
        yield
    finally:
        if local_rank > 0:
            dist.barrier()  # want CV301 "local_rank > 0"


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    with main_process_first(local_rank):
        data = [1, 2, 3]
    dist.barrier()
    print(data)
