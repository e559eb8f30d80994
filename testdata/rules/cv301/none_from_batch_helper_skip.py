# A helper that returns None when what it computed from this rank's
# batch fails a test (ARTrack's actor.explore(): a NaN, a lost target),
# then `if result == None: continue` before the DDP backward: that rank
# skips the gradient all-reduce the others issue.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Actor:
    def __init__(self, net):
        self.net = net

    def explore(self, data):
        out = self.net(data["x"])
        if out.isnan().any():
            return None
        return {"x": data["x"]}

    def compute_losses(self, inputs):
        return self.net(inputs["x"]).mean()


def cycle_dataset(actor, loader, optimizer):
    for data in loader:
        with torch.no_grad():
            explore_result = actor.explore(data)
        if explore_result == None:
            continue
        optimizer.zero_grad()
        loss = actor.compute_losses(explore_result)  # want CV301 "this rank's own batch|batch"
        loss.backward()
        optimizer.step()


def main(loader, model, optimizer):
    dist.init_process_group("nccl")
    net = DDP(model.cuda(), device_ids=[dist.get_rank()])
    cycle_dataset(Actor(net), loader, optimizer)
