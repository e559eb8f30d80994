# The main process evaluates the unwrapped module, whose forward does not
# communicate; every rank runs the prepared model's forward in training.
import torch
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader


def train(model, train_ds, valid_ds):
    accelerator = Accelerator()
    opt = torch.optim.Adam(model.parameters())
    model, opt, train_dl = accelerator.prepare(model, opt, DataLoader(train_ds, batch_size=8))
    valid_dl = DataLoader(valid_ds, batch_size=8)
    for x, y in train_dl:
        loss = F.cross_entropy(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
        accelerator.wait_for_everyone()
        if accelerator.is_main_process:
            raw = accelerator.unwrap_model(model)
            with torch.no_grad():
                for vx, vy in valid_dl:
                    vloss = F.cross_entropy(raw(vx), vy)
        accelerator.wait_for_everyone()
