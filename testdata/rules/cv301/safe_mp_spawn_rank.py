# The spawned function's rank gates only side effects, or every rank
# reaches the same collectives; a parameter named rank of a function no
# spawner runs is just a parameter.
import torch.distributed as dist
import torch.multiprocessing as mp


def train(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    if rank == 0:
        print("starting")
    if rank != 0:
        dist.barrier()
    download()
    if rank == 0:
        dist.barrier()
    dist.all_reduce(None)


def download():
    return None


def report(rank, value):
    if rank == 0:
        dist.barrier()
    return value


if __name__ == "__main__":
    mp.spawn(train, args=(2,), nprocs=2)
