# Preparing the model for training wraps it in DDP, whose construction
# broadcasts the parameters: the main process cannot do it alone.
import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model = torch.nn.Linear(16, 16)
    if accelerator.is_main_process:
        model = accelerator.prepare_model(model)  # want CV301 "prepare_model"
    accelerator.wait_for_everyone()


def main_positional():
    accelerator = Accelerator()
    model = torch.nn.Linear(16, 16)
    if accelerator.is_main_process:
        model = accelerator.prepare_model(model, None, False)  # want CV301 "prepare_model"
    accelerator.wait_for_everyone()
