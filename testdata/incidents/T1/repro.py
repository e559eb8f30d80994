import os
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


def collect(payload):
    rank = dist.get_rank()
    world = dist.get_world_size()
    out = [None] * world if rank == 0 else None
    dist.gather_object(payload, out, dst=0)
    return out


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    payload = {"rank": dist.get_rank(), "stats": [1, 2, 3]}
    collect(payload)
    with ThreadPoolExecutor(max_workers=1) as pool:
        fut = pool.submit(collect, payload)
        print(fut.result())


if __name__ == "__main__":
    main()
