# Every rank creates every subset's group and keeps its own (Megatron's
# parallel_state), or lets only the members synchronise.
import torch.distributed as dist


def init_tensor_parallel(tp_size):
    rank = dist.get_rank()
    world = dist.get_world_size()
    mine = None
    for start in range(0, world, tp_size):
        ranks = list(range(start, start + tp_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            mine = group
    return mine


def init_local(tp_size):
    rank = dist.get_rank()
    start = (rank // tp_size) * tp_size
    return dist.new_group(list(range(start, start + tp_size)), use_local_synchronization=True)


def register_singleton(backend):
    # torchft: every rank creates a group of itself alone, in the same
    # order; a one-member group has no one to connect to.
    return dist.new_group(ranks=[dist.get_rank()], backend=backend)
