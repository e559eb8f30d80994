# S4/S5: DeepSpeed's accelerator abstraction stands for torch.cuda; a side
# stream from get_accelerator() with no waits either way.
import torch
from deepspeed import comm as dist
from deepspeed.accelerator import get_accelerator


def average_tensor(model, batch):
    reduction_stream = get_accelerator().Stream()
    grad = model(batch)
    with get_accelerator().stream(reduction_stream):
        dist.all_reduce(grad)  # want CV203 "\"grad\" is written on the current stream .* used by all_reduce here on reduction_stream"
    out = grad * 2  # want CV203 "\"grad\" is written on reduction_stream"
    return out
