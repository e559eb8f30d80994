# accelerate's prepare() given only a data loader (or an optimizer, or a
# scheduler) wraps it on this rank and communicates nothing: the main
# process may prepare a preview loader alone (parler-tts' evaluation).
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    ds = TensorDataset(torch.arange(64.0))
    model = accelerator.prepare(torch.nn.Linear(1, 1))
    if accelerator.is_main_process:
        preview = accelerator.prepare(DataLoader(ds, batch_size=8))
        opt = accelerator.prepare(torch.optim.SGD(model.parameters(), lr=0.1))
        print(preview, opt)
    accelerator.wait_for_everyone()
