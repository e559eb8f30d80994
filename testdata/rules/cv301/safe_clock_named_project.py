# A timestamp names the run's directory; the Accelerator built from that
# configuration is no clock reading, and its sync_gradients comes from
# the step counter, the same on every rank (ddpo's trainer).
import datetime
import os

import torch
from accelerate import Accelerator
from accelerate.utils import ProjectConfiguration


def main(loader):
    run_name = datetime.datetime.now().strftime("%Y.%m.%d_%H.%M.%S")
    project_config = ProjectConfiguration(project_dir=os.path.join("logs", run_name))
    accelerator = Accelerator(project_config=project_config, gradient_accumulation_steps=4)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = accelerator.prepare(model, opt)
    for x in loader:
        with accelerator.accumulate(model):
            loss = model(x).sum()
            accelerator.backward(loss)
            opt.step()
        if accelerator.sync_gradients:
            accelerator.reduce(loss.detach(), reduction="mean")
