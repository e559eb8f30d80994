# The NaN flag is computed from the all-reduced loss, inline or by the
# checking helper: every rank holds the same flag and skips together.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def check_loss(loss_value):
    loss_valid = True
    if loss_value != loss_value or loss_value == float("inf"):
        loss_valid = False
    return loss_valid


def check_tensor(reduced):
    ok = True
    if torch.isnan(reduced).any():
        ok = False
    return ok


def train(model, loader, optimizer, criterion, world_size):
    model = DDP(model.cuda())
    for inputs, targets in loader:
        loss = criterion(model(inputs.cuda()), targets)
        reduced = loss.detach().clone()
        dist.all_reduce(reduced)
        valid = True
        if torch.isnan(reduced).sum() > 0:
            valid = False
        if valid and check_loss((reduced / world_size).item()) and check_tensor(reduced):
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
