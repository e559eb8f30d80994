# One process group (WORLD) used from a Python thread and the main thread.
# witness: hazard
# witness: expect-cpu CV101
# witness: expect-cuda CV101
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


def reduce_many(device, n, k, go):
    for _ in range(ITERS):
        go.wait()
        t = torch.full((n,), float(k * (dist.get_rank() + 1)), device=device)
        dist.all_reduce(t)
        check(t, k)


def main():
    device = setup()
    go = threading.Event()
    if RACE:
        go.set()
    worker = threading.Thread(target=reduce_many, args=(device, 1024, 1, go))
    worker.start()
    for _ in range(ITERS):
        t = torch.full((4096,), float(2 * (dist.get_rank() + 1)), device=device)
        dist.all_reduce(t)
        check(t, 2)
    go.set()
    worker.join()
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
