# A test of the default backend settles only the groups that inherit it:
# under `== "nccl"` the worker drives a device communicator, and so does a
# group made with an explicit NCCL backend under `== "gloo"`.
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist

ex = ThreadPoolExecutor(1)


def under_nccl(x, y):
    tp = dist.new_group()

    def reduce_tp():
        dist.all_reduce(x, group=tp)  # want CV103 "pool worker"

    if dist.get_backend() == "nccl":
        fut = ex.submit(reduce_tp)
    dist.all_reduce(y)
    return fut


def explicit_nccl_group(x, y):
    tp = dist.new_group(backend="nccl")

    def reduce_tp():
        dist.all_reduce(x, group=tp)  # want CV103 "pool worker"

    if dist.get_backend() == "gloo":
        fut = ex.submit(reduce_tp)
    dist.all_reduce(y, group=tp2)
    return fut


tp2 = dist.new_group(backend="nccl")


def in_the_other_arm(args, x, y):
    dist.init_process_group(args.backend)
    tp = dist.new_group()

    def reduce_tp():
        dist.all_reduce(x, group=tp)  # want CV103 "pool worker"

    if dist.get_backend() == "gloo":
        pass
    else:
        fut = ex.submit(reduce_tp)
    dist.all_reduce(y)
    return fut
