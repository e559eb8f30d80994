# Inside a model's own join(), its forward and backward are shadowed for
# the ranks that ran out of batches; a second model used only after the
# loop, and a Join over both models, are fine too.
import torch
import torch.distributed as dist
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP


def train(loader, probe):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(4, 4).cuda())
    head = DDP(torch.nn.Linear(4, 1).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with model.join():
        for x in loader:
            loss = model(x.cuda()).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    head(probe).mean().backward()


def train_both(loader):
    dist.init_process_group("nccl")
    gen = DDP(torch.nn.Linear(4, 4).cuda())
    disc = DDP(torch.nn.Linear(4, 1).cuda())
    with Join([gen, disc]):
        for x in loader:
            fake = gen(x.cuda())
            disc(fake).mean().backward()
