from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def main(x, y):
    tp = dist.new_group()
    ex = ThreadPoolExecutor(1)

    def reduce_tp():
        dist.all_reduce(x, group=tp)  # want CV103 "pool worker"

    fut = ex.submit(reduce_tp)
    dist.all_reduce(y)
    return fut
