# Each tensor-parallel subset creates only its own group (R18): new_group
# synchronises the default group, so every rank must create every
# subset's group, with the same lists in the same order.
import torch.distributed as dist


def init_tensor_parallel(tp_size):
    rank = dist.get_rank()
    start = (rank // tp_size) * tp_size
    tp_ranks = list(range(start, start + tp_size))
    return dist.new_group(tp_ranks)  # want CV301 "depends on the rank"


def init_pairs():
    me = dist.get_rank()
    return dist.new_group(ranks=[me, me ^ 1])  # want CV301 "new_group is collective"
