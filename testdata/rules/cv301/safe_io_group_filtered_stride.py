# The io group holds exactly the ranks a comprehension's filter keeps
# (r % tp_size == 0), and only the ranks with rank % tp_size == 0 use
# it (gpt-neox's io group of the model-parallel rank-0 ranks, which
# build the dataset's index files).
import torch
import torch.distributed as dist

_IO_GROUP = None


def init_groups(tp_size):
    global _IO_GROUP
    world, rank = dist.get_world_size(), dist.get_rank()
    io_ranks = [r for r in range(world) if r % tp_size == 0]
    group = dist.new_group(io_ranks)
    if rank in io_ranks:
        _IO_GROUP = group


def build_index_mappings():
    counts = torch.ones(1)
    dist.all_reduce(counts, group=_IO_GROUP)


def build_data_loaders(tp_size):
    if dist.get_rank() % tp_size == 0:
        build_index_mappings()
