# Horovod's DistributedOptimizer all-reduces each gradient asynchronously
# from its backward hooks and waits in synchronize(), which step() calls:
# clipping in between reads gradients still being reduced (l2hmc-qcd).
import torch
import horovod.torch as hvd


def train(model, loader):
    hvd.init()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters())
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # want CV401 "reads the gradients that Horovod's DistributedOptimizer opt is still all-reducing"
        opt.step()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = hvd.DistributedOptimizer(torch.optim.Adam(model.parameters()))
        self.scaler = torch.cuda.amp.GradScaler()

    def step(self, x):
        loss = self.model(x).sum()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)  # want CV401 "self.scaler.unscale_ reads the gradients"
        self.optimizer.step()
