# DistributedDataParallel all-reduces whole gradients: every rank finds the
# same inf/NaN, so a plain GradScaler skips the same steps everywhere.
import torch
from fairscale.optim.oss import OSS
from torch.nn.parallel import DistributedDataParallel as DDP


def loop(model, opt, loader):
    model = DDP(model)
    scaler = torch.cuda.amp.GradScaler()
    for batch in loader:
        scaler.scale(model(batch).sum()).backward()
        scaler.step(opt)
        scaler.update()


def oss_with_ddp(model, loader):
    # OSS under DDP: the gradients are all-reduced whole before the step.
    optimizer = OSS(params=model.parameters(), optim=torch.optim.SGD, lr=0.1)
    model = DDP(model)
    scaler = torch.cuda.amp.GradScaler()
    for batch in loader:
        scaler.scale(model(batch).sum()).backward()
        scaler.step(optimizer)
        scaler.update()


def save(path, rank):
    optimizer = OSS(params=[], optim=torch.optim.SGD, lr=0.1)
    optimizer.consolidate_state_dict(recipient_rank=0)
    if torch.distributed.get_rank() == 0:
        torch.save(optimizer.state_dict(), path)
