# The module is unwrapped into a local to save it, or the instance's
# model is rebound only after the last epoch: every epoch trains through
# the wrapper.
import torch
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, loader):
        self.accelerator = Accelerator()
        opt = torch.optim.AdamW(model.parameters())
        self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

    def train_one_epoch(self):
        for batch in self.loader:
            loss = self.model(**batch).loss
            self.accelerator.backward(loss)
            self.opt.step()

    def train(self, n_epochs):
        for epoch in range(n_epochs):
            self.train_one_epoch()
            unwrapped = self.accelerator.unwrap_model(self.model)
            unwrapped.save_pretrained("out", is_main_process=self.accelerator.is_main_process)
        self.model = self.accelerator.unwrap_model(self.model)
