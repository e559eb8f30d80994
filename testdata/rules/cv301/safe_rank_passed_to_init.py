# Every rank issues the collective; only the print is gated on the rank
# handed to init_process_group. A number that is not passed as the rank
# (the world size) is the same on every rank.
import torch.distributed as dist


def train(gpu, args, v):
    rank = args.nr * args.gpus + gpu
    size = args.nodes * args.gpus
    dist.init_process_group(backend="nccl", world_size=size, rank=rank)
    dist.all_reduce(v)
    if rank == 0:
        print(v)
    if size > 1:
        dist.barrier()
