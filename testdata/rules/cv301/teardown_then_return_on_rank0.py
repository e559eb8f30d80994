# Rank 0 tears its group down and returns quietly: the others wait in the
# barrier for a rank that left, and nothing stops the job.
import torch.distributed as dist


def validate_and_save(score, best, threshold):
    if dist.get_rank() == 0:
        if best - score < threshold:
            dist.destroy_process_group()  # want CV301 "destroy_process_group on the default group"
            return False
    dist.barrier()  # want CV301 "barrier on the default group"
    return True
