# A model that accelerator.prepare wrapped (DDP, FSDP or DeepSpeed by the
# launch config) runs its forward on the main process alone: under FSDP
# and ZeRO-3 that forward all-gathers the shards, under DDP it broadcasts
# the buffers, while the other ranks wait in the barrier
# (self-rewarding-lm-pytorch's validation).
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
            with torch.no_grad():
                for vx, vy in valid_dl:
                    vloss = F.cross_entropy(model(vx), vy)  # want CV301 "the model's forward .*runs only when `accelerator.is_main_process` holds"
        accelerator.wait_for_everyone()
