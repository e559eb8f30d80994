# A non-blocking copy into pinned host memory on a side stream is still in
# flight when the host reads the tensor.
import torch


def offload(x):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    cpu = torch.empty(x.shape, dtype=x.dtype, device="cpu", pin_memory=True)
    with torch.cuda.stream(side):
        cpu.copy_(x, non_blocking=True)
    return cpu.sum()  # want CV203 "\"cpu\" is written on side"
