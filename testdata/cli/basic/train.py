import threading

import torch
import torch.distributed as dist


def saver(t):
    dist.all_reduce(t)


def main():
    t = torch.ones(1)
    label = "é — ∑"; dist.all_reduce(t)
    threading.Thread(target=saver, args=(t,)).start()
    dist.all_reduce(t)  # collvet: ignore[CV990] checked by hand: this one is fine
    # collvet: ignore[CV990] the next line is intentional
    dist.all_reduce(t)
    x = "# collvet: ignore[CV990] not a comment"; dist.all_reduce(t)
    y = 1  # collvet: ignore[CV990] nothing to suppress here
    dist.all_reduce(t)  # collvet: ignore[CV990]
