# accelerate's prepare_model(model, evaluation_mode=True) wraps nothing
# (no DDP, no FSDP): the main process may prepare an evaluation copy on
# its own (parler-tts' audio encoder).
import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    codec = torch.nn.Linear(16, 16)
    if accelerator.is_main_process:
        codec = accelerator.prepare_model(codec, evaluation_mode=True)
    accelerator.wait_for_everyone()
