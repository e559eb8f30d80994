# One helper makes the weight-sync group for both sides: trainer rank 0
# and every inference-engine worker are its members.
from torch.distributed.distributed_c10d import _new_process_group_helper


def make_sync_group(world_size, rank, store):
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name="weight_sync")
    return pg
