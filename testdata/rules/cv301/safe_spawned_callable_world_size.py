# The same launcher; the function branches on the world size, which every
# rank shares.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def _worker(world_rank, world_size, fn, args):
    dist.init_process_group(backend="nccl", world_size=world_size, rank=world_rank)
    fn(world_rank, world_rank, world_size, args)


def main(local_rank, world_rank, world_size, _):
    t = torch.ones(1)
    if world_size > 1:
        dist.all_reduce(t)
    if world_rank == 0:
        print(t)


if __name__ == "__main__":
    mp.spawn(_worker, args=(2, main, None), nprocs=2)
