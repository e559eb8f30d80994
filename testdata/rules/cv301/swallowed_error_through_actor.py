# The training loop sits in a try whose bare except only logs, and the
# DDP forward and backward are reached through the trainer's epoch
# method and an actor object whose __call__ returns the DDP net's loss
# (OSTrack's, MixFormerV2's and ARTrack's base trainer): a rank that
# raises leaves the loop while the others wait in the next all-reduce.
import traceback

import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Actor:
    def __init__(self, net):
        self.net = net

    def __call__(self, data):
        return self.net(data).mean()


class Trainer:
    def __init__(self, actor, loader, optimizer):
        self.actor, self.loader, self.optimizer, self.epoch = actor, loader, optimizer, 0

    def train(self, max_epochs):
        for i in range(1):
            try:
                for epoch in range(self.epoch + 1, max_epochs + 1):
                    self.epoch = epoch
                    self.train_epoch()  # want CV301 "swallows|except"
            except:
                print(traceback.format_exc())
        print("Finished training!")

    def train_epoch(self):
        for data in self.loader:
            loss = self.actor(data.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


def run(model, loader, optimizer):
    dist.init_process_group("nccl")
    net = DDP(model.cuda(), device_ids=[dist.get_rank()])
    Trainer(Actor(net), loader, optimizer).train(300)
