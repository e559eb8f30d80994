# The group exists only on the ranks that made it (its members, made with
# use_local_synchronization=True), so testing whether this rank holds it
# is the creation's own condition: only members destroy it.
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
g = dist.new_group([0, 1], use_local_synchronization=True) if rank < 2 else None
if g is not None:
    dist.destroy_process_group(g)
