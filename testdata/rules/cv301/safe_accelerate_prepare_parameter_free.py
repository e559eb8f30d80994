# accelerate wraps a module in DistributedDataParallel only when some
# parameter requires grad: a module of buffers alone (an STFT), prepared
# on the main process for its validation, is only moved to the device
# (univnet's trainer).
import torch
from accelerate import Accelerator
from torch import nn


class STFT(nn.Module):
    def __init__(self, n_fft=16):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))

    def mel(self, y):
        return torch.stft(y, self.n_fft, window=self.window, return_complex=True).abs()


class MelSTFT(nn.Module):
    def __init__(self):
        super().__init__()
        self.stft = STFT()
        self.register_buffer("basis", torch.ones(8, 9))


def main():
    accelerator = Accelerator()
    model = nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
    if accelerator.is_main_process:
        val_stft = accelerator.prepare(MelSTFT())
    model, opt = accelerator.prepare(model, opt)
    for step in range(100):
        loss = model(torch.randn(2, 4, device=accelerator.device)).sum()
        accelerator.backward(loss)
        opt.step()


class Gen(nn.Module):
    # Convolutions only: no buffers for DDP's forward to broadcast.
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


@torch.no_grad()
def validate(gen, x):
    return gen(x).mean()


def train_gen():
    # The buffered STFT prepared beside the generator is no DDP module:
    # the generator's no-grad forward on the main process alone issues
    # nothing (univnet's validation).
    accelerator = Accelerator()
    gen = Gen()
    opt = torch.optim.AdamW(gen.parameters())
    stft = accelerator.prepare(STFT())
    gen, opt = accelerator.prepare(gen, opt)
    for step in range(100):
        if accelerator.is_main_process and step % 10 == 0:
            validate(gen, torch.randn(1, 4, 8))
        accelerator.backward(gen(torch.randn(2, 4, 8)).sum())
        opt.step()
