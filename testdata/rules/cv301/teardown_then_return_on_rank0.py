# Rank 0 tears its group down and returns quietly: the others wait in the
# barrier for a rank that left, and nothing stops the job.
import torch.distributed as dist


def validate_and_save(rank, score, best, threshold):
    if rank == 0:
        if best - score < threshold:
            dist.destroy_process_group()  # want CV301 "destroy_process_group on the default group"
            return False
    dist.barrier()
    return True
