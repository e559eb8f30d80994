# Without ZeRO-3 (accelerate's DDP here), the module unwrap_model returns
# is the plain model: its forward on the main process communicates
# nothing.
import torch
from accelerate import Accelerator


def train(model, optimizer, loader, val_batch):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, batch in enumerate(loader):
        loss = model(batch).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if accelerator.is_main_process and step % 100 == 0:
            net = accelerator.unwrap_model(model)
            with torch.no_grad():
                net(val_batch)
