# icefall's MetricsTracker.reduce all-reduces; called inside DDP's join()
# from a loop over this rank's batches, it has no partner on a rank that
# ran out (vall-e's validation inside model.join()).
import torch
from icefall.utils import MetricsTracker
from torch.nn.parallel import DistributedDataParallel as DDP


def compute_validation_loss(model, valid_dl, world_size):
    tot_loss = MetricsTracker()
    for batch in valid_dl:
        info = MetricsTracker()
        info["loss"] = model(batch).sum().item()
        tot_loss = tot_loss + info
    if world_size > 1:
        tot_loss.reduce(torch.device("cuda"))
    return tot_loss


def train_one_epoch(model: DDP, train_dl, valid_dl, world_size, valid_interval):
    step = 0
    with model.join():
        for batch in train_dl:
            model(batch).sum().backward()
            step += 1
            if step % valid_interval == 0:
                compute_validation_loss(model, valid_dl, world_size)  # want CV301 "MetricsTracker.reduce on the default group \(WORLD\) runs in a loop over `train_dl` inside DDP's join\(\)"


def train_then_validate(model: DDP, train_dl, valid_dl, world_size):
    # Validated after the join() block: every rank gets there.
    with model.join():
        for batch in train_dl:
            model(batch).sum().backward()
    compute_validation_loss(model, valid_dl, world_size)
