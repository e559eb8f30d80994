# The variable handed to init_process_group(rank=…) is this process's rank,
# however it was computed (node index times GPUs plus the local GPU): a
# collective under `rank == 0` runs on one rank only.
import torch.distributed as dist


def train(gpu, args, v):
    rank = args.nr * args.gpus + gpu
    dist.init_process_group(backend="nccl", world_size=args.world_size, rank=rank)
    if rank == 0:
        dist.all_reduce(v)  # want CV301 "rank == 0"


def train_positional(node_rank, args, v):
    dist.init_process_group("nccl", "env://", None, args.world_size, node_rank)
    if node_rank == 0:
        dist.barrier()  # want CV301 "node_rank == 0"
