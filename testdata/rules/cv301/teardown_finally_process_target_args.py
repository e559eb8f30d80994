# The PyTorch tutorial's launcher: each Process runs init_process(rank,
# size, run), which calls the training function it was handed and tears
# the group down in a finally: on a rank whose run raises, the teardown
# runs while the other ranks wait in the broadcast.
import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank, size):
    torch.cuda.set_device(rank)
    t = torch.ones(1, device="cuda")
    dist.broadcast(t, src=0)


def init_process(rank, size, fn, backend="nccl"):
    os.environ["MASTER_ADDR"] = "10.0.0.1"
    os.environ["MASTER_PORT"] = "29500"
    dist.init_process_group(backend, rank=rank, world_size=size)
    try:
        fn(rank, size)
    finally:
        dist.destroy_process_group()  # want CV301 "`finally`"


if __name__ == "__main__":
    ps = [mp.Process(target=init_process, args=(r, 2, run)) for r in range(2)]
    for p in ps:
        p.start()
    for p in ps:
        p.join()
