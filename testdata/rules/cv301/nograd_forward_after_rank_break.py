# The same pool scoring, leaving before the pass's forward, or after a
# forward that only some passes make: a rank can leave before it ever
# made the buffer broadcast that the other ranks' first forward makes.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def score_pool_checked_first(model, loader, pool_len, per_rank):
    idx = dist.get_rank() * per_rank
    scores = []
    with torch.no_grad():
        for batch in loader:
            if idx >= pool_len:
                break
            out = model(batch.cuda())  # want CV301 "the model's forward .* runs only on the ranks that do not leave early"
            scores.append(out.sum().item())
            idx += len(batch)
    return scores


def score_pool_some_passes(model, loader, pool_len, per_rank):
    idx = dist.get_rank() * per_rank
    scores = []
    with torch.no_grad():
        for i, batch in enumerate(loader):
            if i > 0:  # the first pass only counts
                out = model(batch.cuda())  # want CV301 "the model's forward .* runs only on the ranks that do not leave early"
                scores.append(out.sum().item())
            idx += len(batch)
            if idx >= pool_len:
                break
    return scores


def main(loader, pool_len, per_rank):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda()
    model = DDP(net, device_ids=[dist.get_rank()])
    a = score_pool_checked_first(model, loader, pool_len, per_rank)
    b = score_pool_some_passes(model, loader, pool_len, per_rank)
    dist.barrier()
    return a, b
