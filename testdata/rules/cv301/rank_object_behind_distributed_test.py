# A helper that returns the gathered results on rank 0 only (None on the
# others, by falling off its end), called where the job is distributed
# (`gather_results(r) if dist.is_initialized() else r`): a test of what
# it returned is a rank test (nanodet's validation).
import torch.distributed as dist


def gather_results(result_part):
    rank = -1
    if dist.is_available() and dist.is_initialized():
        rank = dist.get_rank()
    parts = [None] * dist.get_world_size()
    dist.all_gather_object(parts, result_part)
    if rank < 1:
        all_res = {}
        for p in parts:
            all_res.update(p)
        return all_res


def validation_epoch_end(results, trainer):
    all_results = (
        gather_results(results)
        if dist.is_available() and dist.is_initialized()
        else results
    )
    if all_results:
        trainer.save_flag = len(all_results)
        dist.barrier()  # want CV301 "all_results"
