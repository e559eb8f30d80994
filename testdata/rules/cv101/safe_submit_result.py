from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def collect(t):
    dist.all_reduce(t)


def main(t):
    with ThreadPoolExecutor(1) as ex:
        ex.submit(collect, t).result()
    dist.barrier()
