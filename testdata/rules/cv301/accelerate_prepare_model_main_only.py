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


class Projector(torch.nn.Module):
    # A module of the program with a trainable layer: DDP wraps it.
    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(16))
        self.proj = torch.nn.Linear(16, 16)


class Spectrogram(Projector):
    # No layer of its own, but its base has one.
    def __init__(self):
        super().__init__()
        self.register_buffer("mel", torch.ones(16, 16))


def main_projector():
    accelerator = Accelerator()
    if accelerator.is_main_process:
        accelerator.prepare(Projector())  # want CV301 "Accelerator.prepare .* runs only when `accelerator.is_main_process` holds"
    if accelerator.is_main_process:
        accelerator.prepare(Spectrogram())  # want CV301 "Accelerator.prepare .* runs only when `accelerator.is_main_process` holds"
    accelerator.wait_for_everyone()


class Stack(torch.nn.Module):
    # Layers made in a loop and appended, or set by name: parameters too.
    def __init__(self, n):
        super().__init__()
        self.layers = torch.nn.ModuleList()
        for _ in range(n):
            self.layers.append(torch.nn.Linear(4, 4))
        setattr(self, "head", torch.nn.Linear(4, 1))


def main_stack():
    accelerator = Accelerator()
    if accelerator.is_main_process:
        accelerator.prepare(Stack(2))  # want CV301 "Accelerator.prepare .* runs only when `accelerator.is_main_process` holds"
    accelerator.wait_for_everyone()
