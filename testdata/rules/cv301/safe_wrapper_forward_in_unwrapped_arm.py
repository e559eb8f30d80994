# The wrapper's forward only in the arm where the model is not a wrapper
# (bigvsan's validate), and the inner module picked in the isinstance
# test's arm where it is one (MASR's evaluate, also as a conditional
# expression on an attribute): rank 0's validation communicates nothing.
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
                    y = generator.module(x.cuda())
                else:
                    y = generator(x.cuda())
                print(y.sum().item())

    for x in loader:
        generator(x.cuda()).sum().backward()
        if rank == 0:
            validate()


class Trainer:
    def evaluate(self, loader):
        self.model.eval()
        if isinstance(self.model, DDP):
            eval_model = self.model.module
        else:
            eval_model = self.model
        with torch.no_grad():
            return sum(eval_model(x.cuda()).sum().item() for x in loader)

    def evaluate_expr(self, loader):
        m = self.model.module if isinstance(self.model, DDP) else self.model
        with torch.no_grad():
            return sum(m(x.cuda()).sum().item() for x in loader)

    def train(self, loader):
        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        torch.cuda.set_device(local_rank)
        self.model = DDP(torch.nn.BatchNorm1d(8).cuda(), device_ids=[local_rank])
        for epoch in range(3):
            for x in loader:
                self.model(x.cuda()).sum().backward()
            if local_rank == 0:
                print(self.evaluate(loader))
                print(self.evaluate_expr(loader))
