# With a ZeRO-3 plugin, accelerate's prepared model keeps its
# partitioning hooks on the module itself: the forward of what
# unwrap_model returns still all-gathers the parameters, on the main
# process alone here (ConsisID's validation).
import torch
from accelerate import Accelerator
from accelerate.utils import DeepSpeedPlugin


def train(model, optimizer, loader, val_batch):
    accelerator = Accelerator(deepspeed_plugin=DeepSpeedPlugin(zero_stage=3))
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, batch in enumerate(loader):
        loss = model(batch).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if accelerator.is_main_process and step % 100 == 0:
            net = accelerator.unwrap_model(model)
            with torch.no_grad():
                net(val_batch)  # want CV301 "runs only when `accelerator.is_main_process and step % 100 == 0` holds"
