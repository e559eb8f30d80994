# Rank 0 checks for a cached file and broadcasts the answer when the job
# has more than one process (`num_gpus`, the world size in the EDM
# family's options); with one process there is no one to disagree with.
import os

import torch
import torch.distributed as dist


def compute_stats(cache_file, num_gpus, rank, device):
    flag = os.path.isfile(cache_file) if rank == 0 else False
    if num_gpus > 1:
        flag = torch.as_tensor(flag, dtype=torch.float32, device=device)
        dist.broadcast(tensor=flag, src=0)
        flag = float(flag.cpu()) != 0
    if flag:
        return torch.load(cache_file)
    stats = torch.zeros(4, device=device)
    if num_gpus > 1:
        dist.all_reduce(stats)
    return stats
