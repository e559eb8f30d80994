# A validation helper takes the rank (for logging it never does) and the
# rank's own loader, and returns metrics it all-reduced: the loss name is
# rebound to the reduced sum before the return. What it returns is every
# rank's, whether the rank is passed in place or through a local; a
# best-score save gated on it is entered by every rank alike
# (InstructLLaMA's reward-model validation). A helper that returns the
# rank's own loss, or one computed from the rank, stays reported.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.utils.data import DataLoader, DistributedSampler


def run_validation(model, rank, loader):
    metrics = torch.zeros(2).cuda()
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        metrics[0] += loss.item()
        metrics[1] += 1
    dist.all_reduce(metrics)
    loss = metrics[0] / metrics[1]
    return {"loss": loss.item()}


def run_validation_local(model, rank, loader):
    total = 0.0
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        total += loss.item()
    return {"loss": total}


def shard_of(rank, n):
    return {"loss": float(rank) / n}


def main(dataset):
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = FSDP(torch.nn.Linear(4, 4).cuda())
    loader = DataLoader(dataset, sampler=DistributedSampler(dataset, rank=rank))
    best = 1e9
    for it in range(10):
        stats = run_validation(model, rank=dist.get_rank(), loader=loader)
        if stats["loss"] < best:
            best = stats["loss"]
            model.state_dict()
        stats = run_validation(model, rank, loader)
        if stats["loss"] < best:
            model.state_dict()
        own = run_validation_local(model, rank, loader)
        if own["loss"] < best:
            model.state_dict()  # want CV301 "own\[\"loss\"\] < best"
        share = shard_of(dist.get_rank(), 4)
        if share["loss"] < best:
            model.state_dict()  # want CV301 "runs only when"
