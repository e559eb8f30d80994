# A rank whose collate function dropped every sample, or whose batch is
# all padding, skips its DDP forward (which broadcasts the buffers) and
# backward; the others wait for it.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, train_loader, opt):
    model = DDP(net)
    for step, batch in enumerate(train_loader):
        if batch is None:
            continue
        mask = batch["attention_mask"]
        if (mask.sum(dim=1) == 0).all():
            continue
        loss = model(batch["input_ids"]).sum()  # want CV301 "forward .* a test of the batch this rank loaded"
        loss.backward()
        opt.step()


def train_points(net, loader, opt):
    # A point cloud with no points, asked by its shape (Pointcept-style
    # trainers), either way round.
    model = DDP(net)
    for batch in loader:
        if batch["coord"].shape[0] == 0:
            continue
        loss = model(batch["coord"]).mean()  # want CV301 "forward .* a test of the batch this rank loaded"
        loss.backward()
        opt.step()


def train_sized(net, loader, opt):
    model = DDP(net)
    for x in loader:
        if 0 >= x.size()[0]:
            continue
        model(x).sum().backward()  # want CV301 "forward .* a test of the batch this rank loaded"
        opt.step()
