# The epoch loop trains, then rebinds the instance's model to the module
# inside its wrapper to save it: from the second epoch on, the training
# method's forward runs past the wrapper (AgentGym's trainer).
import torch
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, loader):
        self.accelerator = Accelerator()
        opt = torch.optim.AdamW(model.parameters())
        self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

    def train_one_epoch(self, epoch):
        for batch in self.loader:
            loss = self.model(**batch).loss
            self.accelerator.backward(loss)  # want CV304 "loss computed by `self.model` .*line 27 throws away by rebinding `self.model` to its module"
            self.opt.step()
        return epoch

    def train(self, n_epochs):
        for epoch in range(n_epochs):
            done = self.train_one_epoch(epoch)
            self.accelerator.wait_for_everyone()
            if self.accelerator.is_main_process:
                print("epoch", done)
            self.model = self.accelerator.unwrap_model(self.model)
