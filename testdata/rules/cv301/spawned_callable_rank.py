# A launcher spawns a worker with the user's function among its
# arguments, and the worker calls it with the rank (gsplat's cli): the
# rank reaches the function's parameter.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def _worker(world_rank, world_size, fn, args):
    dist.init_process_group(backend="nccl", world_size=world_size, rank=world_rank)
    fn(world_rank, world_rank, world_size, args)


def main(local_rank, world_rank, world_size, _):
    t = torch.ones(1)
    if world_rank == 0:
        dist.all_reduce(t)  # want CV301 "world_rank == 0"


def cli(fn, world_size):
    mp.spawn(_worker, args=(world_size, fn, None), nprocs=world_size)


if __name__ == "__main__":
    cli(main, 2)
