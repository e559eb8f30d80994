# The drawn decision itself is broadcast from rank 0 on the distributed
# path: every rank takes the same branch.
import torch
import torch.distributed as dist


def train_step(stats, skip_prob):
    for turn in ["discriminator", "generator"]:
        if turn == "discriminator":
            if dist.is_initialized():
                skip = torch.rand(1).cuda()
                dist.broadcast(skip, src=0)
            else:
                skip = torch.rand(1)
            if skip.item() < skip_prob:
                continue
        dist.all_reduce(stats)
