# Safe: everything on the main thread: collectives on two groups, p2p split
# by rank, batched p2p, object collectives, async work that is waited.
# witness: safe
# witness: expect-cpu
# witness: expect-cuda
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


def main():
    device = setup()
    rank = dist.get_rank()
    world = dist.get_world_size()
    other = dist.new_group(list(range(world)))
    for _ in range(ITERS):
        t = filled(device, 4096, 2)
        dist.all_reduce(t)
        check(t, 2)
        t = filled(device, 1024, 1)
        work = dist.all_reduce(t, group=other, async_op=True)
        work.wait()
        check(t, 1)
        if world > 1:
            buf = torch.zeros(8, device=device)
            if rank == 0:
                dist.send(buf + 5, dst=1)
            elif rank == 1:
                dist.recv(buf, src=0)
            peer = (rank + 1) % world
            src = (rank - 1) % world
            out = filled(device, 8, 1)
            inp = torch.zeros(8, device=device)
            ops = [dist.P2POp(dist.isend, out, peer), dist.P2POp(dist.irecv, inp, src)]
            for w in dist.batch_isend_irecv(ops):
                w.wait()
        objs = [None] * world
        dist.all_gather_object(objs, {"rank": rank})
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
