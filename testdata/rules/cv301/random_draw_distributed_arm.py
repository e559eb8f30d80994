# espnet's GAN trainer draws its skip decision on the distributed path and
# broadcasts a fresh throwaway tensor instead of the decision; the single
# process path draws too. The decision stays this rank's own.
import torch
import torch.distributed as dist


def train_step(stats, skip_prob):
    for turn in ["discriminator", "generator"]:
        if turn == "discriminator":
            if dist.is_initialized():
                skip = torch.rand(1)
                dist.broadcast(torch.rand(1).cuda(), src=0)
            else:
                skip = torch.rand(1)
            if skip.item() < skip_prob:
                continue
        dist.all_reduce(stats)  # want CV301 "do not leave early"
