# torch.zeros runs a fill kernel on the current stream: updating the
# tensor on a side stream without waiting races with the fill.
import torch


def accumulate(shape, grads):
    side = torch.cuda.Stream()
    acc = torch.zeros(shape, device="cuda")
    with torch.cuda.stream(side):
        for g in grads:
            acc.add_(g)  # want CV203 "\"acc\" is written on the current stream"
    return acc  # want CV203 "\"acc\" is written on side"
