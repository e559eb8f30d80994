# The fix of S4 (DeepSpeed PR #5606), through the accelerator abstraction:
# the reduction stream waits for the default stream before reading the
# bucket, and the default stream waits for the reduction before reuse.
import torch
from deepspeed import comm as dist
from deepspeed.accelerator import get_accelerator


def average_tensor(model, batch):
    reduction_stream = get_accelerator().Stream()
    grad = model(batch)
    reduction_stream.wait_stream(get_accelerator().current_stream())
    with get_accelerator().stream(reduction_stream):
        dist.all_reduce(grad)
    get_accelerator().current_stream().wait_stream(reduction_stream)
    return grad * 2
