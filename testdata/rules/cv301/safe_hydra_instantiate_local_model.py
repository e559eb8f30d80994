# The trainer that hydra's instantiate builds gets a model no process
# group wraps: skipping its backward on one rank skips no collective.
import torch
from hydra.utils import instantiate


class LocalNanSkippingTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train(self):
        for _ in range(100):
            loss = self.model(torch.randn(4, 8)).pow(2).mean()
            self.optimizer.zero_grad()
            if not torch.isnan(loss):
                loss.backward()
                self.optimizer.step()


def main(cfg):
    torch.distributed.init_process_group(backend="gloo")
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer: LocalNanSkippingTrainer = instantiate(cfg.task.trainer, model=model, optimizer=opt)
    trainer.train()
