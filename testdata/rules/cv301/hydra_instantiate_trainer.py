# The DDP model reaches the trainer through hydra's instantiate, which
# builds the annotated class with the keyword arguments it is given
# (pangaea-bench's run.py): the trainer's backward, skipped on a rank
# whose own loss is NaN, is the DDP model's.
import os

import torch
from hydra.utils import instantiate


class NanSkippingTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train(self):
        for _ in range(100):
            loss = self.model(torch.randn(4, 8, device="cuda")).pow(2).mean()
            self.optimizer.zero_grad()
            if not torch.isnan(loss):
                loss.backward()  # want CV301 "NaN/Inf test"
                self.optimizer.step()


def main(cfg):
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.distributed.init_process_group(backend="nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 1).cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer: NanSkippingTrainer = instantiate(cfg.task.trainer, model=model, optimizer=opt)
    trainer.train()
