# dcp.save with no_dist=True writes from this process alone, with no
# collective: rank 0 may call it alone, directly or through a partial
# that binds no_dist (tight-budget-llm-adaptation's optimizer save).
from functools import partial

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dist_cp

no_dist_save = partial(dist_cp.save, no_dist=True)


def save_optimizer(optim_sd, ckpt_dir, rank):
    dist.barrier()
    if rank == 0:
        no_dist_save(state_dict=optim_sd, storage_writer=dist_cp.FileSystemWriter(ckpt_dir))
        dist_cp.save(optim_sd, storage_writer=dist_cp.FileSystemWriter(ckpt_dir), no_dist=True)
    dist.barrier()


def main():
    dist.init_process_group("nccl")
    save_optimizer({"x": torch.zeros(2)}, "/tmp/ckpt", dist.get_rank())
