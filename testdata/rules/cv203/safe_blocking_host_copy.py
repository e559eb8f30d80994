# A blocking copy into pinned host memory on a side stream has finished
# when copy_ returns: the host tensor is complete when it is handed back.
import torch


def offload(x):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    cpu = torch.empty(x.shape, dtype=x.dtype, device="cpu", pin_memory=True)
    with torch.cuda.stream(side):
        cpu.copy_(x, non_blocking=False)
    return cpu
