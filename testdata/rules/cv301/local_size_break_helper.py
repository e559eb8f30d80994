# A loop that leaves at a count computed from this rank's own model
# output: a helper that only reshapes it (no collective) keeps it this
# rank's, so ranks leave at different iterations while the others still
# run the DDP forward.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def flatten_valid(t):
    return t[t.sum(dim=1) > 0]


def fill(loader, model, K):
    seen = 0
    for x, _ in loader:
        k = model(x.cuda())  # want CV301 "do not leave early"
        kept = flatten_valid(k.detach())
        seen += kept.size(0)
        if seen >= K:
            break


def main(ds, net, K):
    dist.init_process_group("nccl")
    model = DDP(net.cuda())
    fill(torch.utils.data.DataLoader(ds), model, K)
