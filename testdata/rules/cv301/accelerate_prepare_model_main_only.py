# A model prepared on the main process alone is wrapped in DDP (a
# broadcast of its parameters) there only.
import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    if accelerator.is_main_process:
        model = accelerator.prepare(torch.nn.Linear(1, 1))  # want CV301 "Accelerator.prepare on the default group \(WORLD\) runs only when `accelerator.is_main_process` holds"
        print(model)
    accelerator.wait_for_everyone()
