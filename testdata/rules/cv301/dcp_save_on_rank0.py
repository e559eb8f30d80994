# Without no_dist, dcp.save plans the checkpoint with collectives over
# the group: rank 0 alone waits for ranks that never call it.
import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dist_cp


def save_optimizer(optim_sd, ckpt_dir, rank):
    dist.barrier()
    if rank == 0:
        dist_cp.save(optim_sd, storage_writer=dist_cp.FileSystemWriter(ckpt_dir))  # want CV301 "runs only when `rank == 0` holds"
    dist.barrier()


def main():
    dist.init_process_group("nccl")
    save_optimizer({"x": torch.zeros(2)}, "/tmp/ckpt", dist.get_rank())
