# The checkpoint counter read from this host's listing only names the
# next checkpoint folder of the Accelerator's project configuration: the
# objects the Accelerator prepares, and the loop over the validation sets
# of the configuration, do not depend on it (AMPLIFY's trainer).
import os
import re

import torch
from accelerate import Accelerator
from accelerate.utils import ProjectConfiguration


def evaluate(model, dataloader):
    with torch.no_grad():
        for x in dataloader:
            model(x)


def main(model, optimizer, train_loader, eval_loaders, chk_dir, start):
    it = 0
    if os.path.exists(chk_dir):
        it = max(int(re.findall(r"([0-9]+)$", f)[0]) for f in os.listdir(chk_dir))
    acc = Accelerator(project_config=ProjectConfiguration("out", iteration=it + 1))
    model, optimizer, train_loader = acc.prepare(model, optimizer, train_loader)
    eval_loaders = {k: acc.prepare(v) for k, v in eval_loaders.items()}
    for x in train_loader:
        loss = model(x).sum()
        acc.backward(loss)
        for k, v in eval_loaders.items():
            evaluate(model, v)
        optimizer.step()
