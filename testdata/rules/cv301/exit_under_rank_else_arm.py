# An exit in the else arm of a rank test: the message names the arm the
# exit is in (`not (rank not in ranks)`).
import torch
import torch.distributed as dist


def make(ranks, n):
    rank = dist.get_rank()
    if rank not in ranks:
        g = None
    else:
        if n >= 2:
            g = 1
        else:
            return g
    dist.all_reduce(torch.ones(1))  # want CV301 "\(`not \(rank not in ranks\)` and then `not \(n >= 2\)`\)"
    return g
