# torch.distributed.checkpoint.async_save plans the checkpoint with
# collectives on a background executor thread (WORLD, as process_group is
# None) while the main thread goes on with its own collectives (incident T2).
# In witness runs the save is awaited before the main thread communicates:
# PyTorch 2.11 starts a fresh executor thread per save and it has ended by
# then, so the guard sees no overlap; racing (WITNESS_RACE=1) it reports CV101.
# witness: hazard
# witness: requires async_save
# witness: expect-cpu
# witness: expect-cuda
import tempfile

import torch.distributed.checkpoint as dcp
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
    if backend == "nccl":
        backend = "cpu:gloo,cuda:nccl"  # async_save needs a CPU backend
    dist.init_process_group(backend, init_method=os.environ["WITNESS_INIT"], rank=rank, world_size=world)
    if backend != "gloo":
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
    state = {"w": torch.ones(64)}
    with tempfile.TemporaryDirectory() as root:
        for step in range(ITERS):
            path = os.path.join(root, "step%d" % step) if dist.get_rank() == 0 else None
            box = [path]
            dist.broadcast_object_list(box)
            saving = dcp.async_save(state, checkpoint_id=box[0])
            if not RACE:
                saving.result()  # witness runs: the save finishes first, on every rank
            t = filled(device, 4096, 2)
            dist.all_reduce(t)
            check(t, 2)
            saving.result()
            dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
