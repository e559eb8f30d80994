# A NaN test of this rank's own loss carried in a flag, set inline or
# returned by a checking helper (deepspeech.pytorch's check_loss), decides
# whether this rank runs the synchronised backward: a rank whose loss is
# NaN skips the gradient all-reduce the others wait in. apex's DDP and
# amp.scale_loss synchronise like torch's.
import torch
import torch.distributed as dist
from apex import amp
from apex.parallel import DistributedDataParallel as ApexDDP
from torch.nn.parallel import DistributedDataParallel as DDP


def check_loss(loss, loss_value):
    loss_valid = True
    error = ""
    if loss_value == float("inf") or loss_value == float("-inf"):
        loss_valid = False
        error = "inf"
    elif torch.isnan(loss).sum() > 0:
        loss_valid = False
        error = "nan"
    return loss_valid, error


def train_inline(model, loader, optimizer, criterion):
    model = DDP(model.cuda())
    for inputs, targets in loader:
        loss = criterion(model(inputs.cuda()), targets)
        valid = True
        if torch.isnan(loss).sum() > 0:
            valid = False
        if valid:
            optimizer.zero_grad()
            loss.backward()  # want CV301 "NaN/Inf test"
            optimizer.step()


def train_apex(model, loader, optimizer, criterion, world_size):
    model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
    model = ApexDDP(model)
    for inputs, targets in loader:
        loss = criterion(model(inputs.cuda()), targets)
        reduced = loss.clone()
        dist.all_reduce(reduced)
        valid_loss, error = check_loss(loss, (reduced / world_size).item())
        if valid_loss:
            optimizer.zero_grad()
            with amp.scale_loss(loss, optimizer) as scaled_loss:
                scaled_loss.backward()  # want CV301 "NaN/Inf test"
            optimizer.step()
        else:
            print(error)
