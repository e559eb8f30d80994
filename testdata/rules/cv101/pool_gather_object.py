# T1 (pytorch/pytorch#115861): gather_object from a ThreadPoolExecutor.
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def collect(payload, out):
    dist.gather_object(payload, out)  # want CV101 "gather_object on the default group .* pool worker"


def main(payload, out, t):
    ex = ThreadPoolExecutor(max_workers=1)
    fut = ex.submit(collect, payload, out)
    dist.all_reduce(t)
    return fut
