# The pool's tasks run a builder whose barriers sit under a parameter of
# its own, and every submit passes False for it (Megatron's blended dataset
# builder, `synchronize_ranks`), also when the builder passes the flag on
# to a helper: no pool thread issues a collective.
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def build_generic(cls, synchronize_ranks, *args):
    obj = cls(*args)
    if synchronize_ranks:
        dist.barrier()
    return obj


def build_split(path, synchronize_ranks=True):
    if not path:
        if synchronize_ranks:
            dist.barrier()
        return None
    return build_generic(list, synchronize_ranks, path)


def build_parallel(paths):
    with ThreadPoolExecutor(max_workers=4) as ex:
        futs = [ex.submit(build_split, p, False) for p in paths]
        kws = [ex.submit(build_split, p, synchronize_ranks=False) for p in paths]
        out = [f.result() for f in futs + kws]
    dist.barrier()
    return out


if __name__ == "__main__":
    dist.init_process_group("nccl")
    build_parallel(["a", "b", ""])
    build_split("d")
    build_all([[None, 1]])
    build_splits([1])


def build_splits(splits, synchronize_ranks=True):
    # The gate inside a loop: `if split is not None and synchronize_ranks:`.
    for split in splits:
        if split is not None and synchronize_ranks:
            dist.barrier()
    return [None] * len(splits)


def build_all(split_lists):
    with ThreadPoolExecutor(max_workers=4) as ex:
        futs = [ex.submit(build_splits, s, False) for s in split_lists]
        return [f.result() for f in futs]
