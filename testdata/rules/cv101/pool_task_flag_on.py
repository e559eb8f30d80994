# A submit that leaves the builder's flag at its default (True) runs its
# barriers on the pool's threads, beside the main thread's.
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def build_generic(cls, synchronize_ranks, *args):
    obj = cls(*args)
    if synchronize_ranks:
        dist.barrier()  # want CV101 "pool worker"
    return obj


def build_split(path, synchronize_ranks=True):
    if not path:
        if synchronize_ranks:
            dist.barrier()  # want CV101 "pool worker"
        return None
    return build_generic(list, synchronize_ranks, path)


def build_parallel(paths):
    with ThreadPoolExecutor(max_workers=4) as ex:
        futs = [ex.submit(build_split, p) for p in paths]
        out = [f.result() for f in futs]
    dist.barrier()
    return out


if __name__ == "__main__":
    dist.init_process_group("nccl")
    build_parallel(["a", "b", ""])
