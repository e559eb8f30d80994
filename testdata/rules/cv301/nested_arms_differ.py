# The other ranks' arms issue different collectives: whichever they take,
# rank 0's all_reduce is not matched by the same sequence.
import torch
import torch.distributed as dist


def step(flag):
    t = torch.ones(1)
    if dist.get_rank() == 0:
        dist.all_reduce(t)
    elif flag:
        dist.all_reduce(t)
    else:
        dist.barrier()  # want CV301 "barrier on the default group"
