# A setup helper whose backend parameter defaults to "gloo" but one caller
# asks for NCCL: the default group may drive a device communicator, whose
# teardown waits for the peers.
import torch
import torch.distributed as dist


def setup(rank, world_size, backend="gloo"):
    dist.init_process_group(backend, rank=rank, world_size=world_size)


def cpu_worker(rank, world_size):
    setup(rank, world_size)


def gpu_worker(rank, world_size):
    setup(rank, world_size, backend="nccl")
    try:
        t = torch.ones(4, device="cuda")
        dist.all_reduce(t)
    finally:
        dist.destroy_process_group()  # want CV301 "destroy_process_group on the default group \(WORLD\) runs at .*finally"
