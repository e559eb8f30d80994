# A gradient hook all-reduces on WORLD while the main thread has its own
# all_reduce on WORLD in flight. CPU graphs run the hook on the thread that
# called backward(); CUDA graphs run it on the autograd engine's device thread.
# witness: hazard
# witness: expect-cpu
# witness: expect-cuda CV101 CV102
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


def average_grad(grad):
    dist.all_reduce(grad)
    return grad


def main():
    device = setup()
    w = torch.ones(1024, device=device, requires_grad=True)
    w.register_hook(average_grad)
    for _ in range(ITERS):
        t = filled(device, 4096, 2)
        work = dist.all_reduce(t, async_op=True)
        (w * float(dist.get_rank() + 1)).sum().backward()
        work.wait()
        check(t, 2)
        check(w.grad, 1)
        w.grad = None
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
