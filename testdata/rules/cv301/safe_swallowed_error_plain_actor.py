# The same loop, with an actor over a module no wrapper synchronises
# (the DDP model trains elsewhere): its loss's backward reduces nothing,
# so a rank that raises inside the try skips no collective.
import traceback

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Actor:
    def __init__(self, net):
        self.net = net

    def __call__(self, data):
        return self.net(data).mean()


class Trainer:
    def __init__(self, actor, loader, optimizer):
        self.actor, self.loader, self.optimizer = actor, loader, optimizer

    def train(self, max_epochs):
        try:
            for epoch in range(max_epochs):
                self.train_epoch()
        except:
            print(traceback.format_exc())
        print("Finished training!")

    def train_epoch(self):
        for data in self.loader:
            loss = self.actor(data.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


def run(model, probe, loader, optimizer):
    dist.init_process_group("nccl")
    ddp = DDP(model.cuda(), device_ids=[dist.get_rank()])
    Trainer(Actor(torch.nn.Linear(4, 1).cuda()), loader, optimizer).train(3)
    return ddp
