# Rank 0 alone decides to stop, tears its group down and raises: the
# process fails, and the launcher stops the others waiting in the barrier.
# A failure, not a path that skips the collectives.
import torch
import torch.distributed as dist


def validate_and_save(rank, score, best, threshold):
    if rank == 0:
        if best - score < threshold:
            dist.destroy_process_group()
            raise RuntimeError("early stop")
    dist.barrier()


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    for step in range(10):
        validate_and_save(rank, float(step), 5.0, 0.1)
    dist.destroy_process_group()
