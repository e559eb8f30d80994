# Rank 0's validation runs the wrapper's own forward in the arm where the
# model is a wrapper (the test's then arm), or picks the wrapper itself
# in both arms of its isinstance test: the first no_grad forward after
# training broadcasts the buffers on rank 0 only.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(rank, world_size, loader):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    generator = DDP(torch.nn.BatchNorm1d(8).cuda(), device_ids=[rank])

    def validate():
        with torch.no_grad():
            for x in loader:
                if hasattr(generator, "module"):
                    y = generator(x.cuda())
                else:
                    y = generator.module(x.cuda())
                print(y.sum().item())

    for x in loader:
        generator(x.cuda()).sum().backward()
        if rank == 0:
            validate()  # want CV301 "rank == 0"


class Trainer:
    def evaluate(self, loader):
        self.model.eval()
        if isinstance(self.model, DDP):
            eval_model = self.model
        else:
            eval_model = self.model
        with torch.no_grad():
            return sum(eval_model(x.cuda()).sum().item() for x in loader)

    def train(self, loader):
        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        torch.cuda.set_device(local_rank)
        self.model = DDP(torch.nn.BatchNorm1d(8).cuda(), device_ids=[local_rank])
        for epoch in range(3):
            for x in loader:
                self.model(x.cuda()).sum().backward()
            if local_rank == 0:
                print(self.evaluate(loader))  # want CV301 "local_rank == 0"
