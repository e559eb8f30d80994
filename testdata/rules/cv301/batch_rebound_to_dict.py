# A rank that skips the step when its own batch lacks a field leaves the
# others in the step's collectives; the batch stays this rank's through
# a loader made in place and a rebinding that copies its fields (Bagel's
# `data = data.cuda(device).to_dict()`).
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader


def train(ds, device):
    for step, data in enumerate(DataLoader(ds, batch_size=None)):
        data = data.to_dict()
        if data.get("seqlens", None) is None:
            continue
        total = torch.tensor(len(data["x"]), device=device)
        dist.all_reduce(total)  # want CV301 "do not leave early .*`data.get\(\"seqlens\", None\) is None`"


def train_dict(loader, device):
    for batch in loader:
        batch = dict(batch)
        if batch["mask"] is None:
            continue
        dist.all_reduce(torch.ones(1, device=device))  # want CV301 "do not leave early"
