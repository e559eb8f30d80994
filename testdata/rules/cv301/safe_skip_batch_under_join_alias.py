# The join context taken through a local (`model_context = self.model.join`
# where the model is DDP, nullcontext otherwise; MASR's trainer): a rank
# that skips an empty batch runs out of passes first, and join() shadows
# the model's forwards and backwards for it.
from contextlib import nullcontext

import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def train_epoch(self, loader, opt):
        if isinstance(self.model, DDP):
            model_context = self.model.join
        else:
            model_context = nullcontext
        with model_context():
            for inputs, labels in loader:
                if labels.size(0) == 0:
                    continue
                loss = torch.nn.functional.mse_loss(self.model(inputs), labels)
                loss.backward()
                opt.step()

    def train(self, loader, local_rank):
        torch.distributed.init_process_group("nccl")
        torch.cuda.set_device(local_rank)
        self.model = DDP(torch.nn.Linear(8, 1).cuda(), device_ids=[local_rank])
        opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        for epoch in range(3):
            self.train_epoch(loader, opt)
