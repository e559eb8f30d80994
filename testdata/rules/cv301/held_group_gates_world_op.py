# Holding the pair's group says nothing of the default group: a barrier
# on WORLD under the same test leaves the other ranks out.
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
g = dist.new_group([0, 1], use_local_synchronization=True) if rank < 2 else None
if g is not None:
    dist.barrier()  # want CV301 "runs only when `g is not None` holds"
