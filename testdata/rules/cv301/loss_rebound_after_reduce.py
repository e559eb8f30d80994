# An evaluation helper that sums each rank's losses into a tensor,
# all-reduces it, and rebinds `loss` to the reduced mean before returning
# it: every rank returns the same numbers, and a best-score save gated on
# them is entered by every rank alike (InstructLLaMA's reward-model
# validation). Returning the loss before the rebinding, or a name the
# reduction never touched, stays reported.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def validate(model, loader):
    metrics = torch.zeros(3).cuda()
    for x, y in loader:
        out = model(x)
        loss = (out - y).pow(2).mean()
        metrics[0] += loss.item()
        metrics[1] += (out.argmax(-1) == y).sum().item()
        metrics[2] += y.numel()
    dist.all_reduce(metrics, op=dist.ReduceOp.SUM)
    loss = metrics[0] / len(loader)
    accuracy = metrics[1] / metrics[2]
    return {"loss": loss.item(), "accuracy": accuracy.item()}


def validate_last(model, loader):
    metrics = torch.zeros(1).cuda()
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        metrics[0] += loss.item()
    dist.all_reduce(metrics)
    return {"loss": loss.item()}  # the last batch's loss, this rank's own


def validate_rebound_in_loop(model, loader):
    metrics = torch.zeros(1).cuda()
    loss = metrics[0]
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        metrics[0] += loss.item()
    dist.all_reduce(metrics)
    return {"loss": loss.item()}


def main(loader):
    dist.init_process_group("nccl")
    model = FSDP(torch.nn.Linear(4, 4).cuda())
    best = 0.0
    for it in range(10):
        stats = validate(model, loader)
        if stats["accuracy"] > best:
            best = stats["accuracy"]
            state = model.state_dict()
            if dist.get_rank() == 0:
                torch.save(state, "best.pt")
        last = validate_last(model, loader)
        if last["loss"] < best:
            model.state_dict()  # want CV301 "comparison of a value computed from each rank's own batch"
        again = validate_rebound_in_loop(model, loader)
        if again["loss"] < best:
            model.state_dict()  # want CV301 "comparison of a value computed from each rank's own batch"
