# The CUDA device index is the rank within the node, not a rank every
# process agrees on (torchdistx's gossip hook took it for the node's
# rank): each node's processes broadcast from different roots.
import torch
import torch.distributed as dist


def gossip(t):
    dist.broadcast(t, src=torch.cuda.current_device())  # want CV303 "takes its src from `torch.cuda.current_device\(\)`"
