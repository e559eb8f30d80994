# High-Flyer's hfai re-exports c10d as hfai.nccl.distributed: its
# collectives are torch.distributed's (OpenCastKit's trainers).
import hfai.nccl.distributed as dist
import torch


def report(loss):
    if dist.get_rank() == 0:
        dist.all_reduce(loss)  # want CV301 "all_reduce on the default group \(WORLD\) runs only when `dist.get_rank\(\) == 0` holds"
    return loss
