import torch.distributed as dist


def tp_reduce(x, tp_ranks):
    tp_group = dist.new_group(tp_ranks)
    if dist.get_rank() in tp_ranks:
        dist.all_reduce(x, group=tp_group)
