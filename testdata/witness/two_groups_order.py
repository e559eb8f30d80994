# Two groups used from two threads in opposite orders: the worker uses A then
# B, the main thread B then A.
# witness: hazard
# witness: expect-cpu CV101
# witness: expect-cuda CV101 CV103
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


def worker(device, a, b, go):
    for _ in range(ITERS):
        go.wait()
        t = filled(device, 1024, 1)
        dist.all_reduce(t, group=a)
        check(t, 1)
        t = filled(device, 2048, 3)
        dist.all_reduce(t, group=b)
        check(t, 3)


def main():
    device = setup()
    ranks = list(range(dist.get_world_size()))
    a = dist.new_group(ranks)
    b = dist.new_group(ranks)
    go = threading.Event()
    if RACE:
        go.set()
    th = threading.Thread(target=worker, args=(device, a, b, go))
    th.start()
    for _ in range(ITERS):
        t = filled(device, 4096, 2)
        dist.all_reduce(t, group=b)
        check(t, 2)
        t = filled(device, 512, 4)
        dist.all_reduce(t, group=a)
        check(t, 4)
    go.set()
    th.join()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
