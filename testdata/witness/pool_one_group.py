# A thread pool worker and the main thread both use WORLD.
# witness: hazard
# witness: expect-cpu CV101
# witness: expect-cuda CV101
from concurrent.futures import ThreadPoolExecutor
import os
import threading

import torch
import torch.distributed as dist

ITERS = int(os.environ.get("WITNESS_ITERS", "1"))
RACE = os.environ.get("WITNESS_RACE") == "1"  # hangrate: no ordering between threads


def setup():
    backend = os.environ.get("WITNESS_BACKEND", "gloo")
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(backend, init_method=os.environ["WITNESS_INIT"], rank=rank, world_size=world)
    if backend == "nccl":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", str(rank))))
        return torch.device("cuda")
    return torch.device("cpu")


def check(t, k):
    world = dist.get_world_size()
    if not bool(torch.all(t == k * world * (world + 1) / 2)):
        print("witness: wrong result, collectives were paired across call sites", flush=True)
        os._exit(3)


def filled(device, n, k):
    return torch.full((n,), float(k * (dist.get_rank() + 1)), device=device)



def task(device, go):
    for _ in range(ITERS):
        go.wait()
        t = filled(device, 1024, 1)
        dist.all_reduce(t)
        check(t, 1)
    return True


def main():
    device = setup()
    go = threading.Event()
    if RACE:
        go.set()
    with ThreadPoolExecutor(max_workers=1) as pool:
        fut = pool.submit(task, device, go)
        for _ in range(ITERS):
            t = filled(device, 4096, 2)
            dist.all_reduce(t)
            check(t, 2)
        go.set()
        fut.result()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
