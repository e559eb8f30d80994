# Two bypasses the wrapper's own forward never arms: an ensemble collected
# in a list and stacked into the loss (UniPhy's align step), and a loop
# whose only all-reduce is an accuracy count, not the gradients
# (torch-sla's distributed GCN).
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def step(model, x, y, opt, ensemble_size):
    raw = model.module
    preds = []
    for _ in range(ensemble_size):
        preds.append(raw.forward_rollout(x))
    ens = torch.stack(preds, dim=0)
    loss = (ens.mean(dim=0) - y).abs().mean()
    loss.backward()  # want CV304 "raw.forward_rollout"
    opt.step()


def train(net, x, y, rank):
    model = DDP(net.cuda(rank), device_ids=[rank])
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(100):
        opt.zero_grad()
        out = model.module(x)
        loss = F.cross_entropy(out, y)
        loss.backward()  # want CV304 "model.module"
        opt.step()
        if epoch % 20 == 0:
            with torch.no_grad():
                correct = (model.module(x).argmax(1) == y).sum()
                dist.all_reduce(correct)
    return model


def main(net, loader):
    dist.init_process_group("nccl")
    model = DDP(net.cuda(), device_ids=[0])
    opt = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        step(model, x, y, opt, 4)
