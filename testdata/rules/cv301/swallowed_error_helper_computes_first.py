# The try body's helper computes before its one collective (validation
# summing its batches, then all_reduce), or the body runs an FSDP model's
# forward after other work: a rank whose work raises skips the
# collectives and goes on to the barrier (audio-flamingo's validation,
# llama's server loop).
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def validate(loader):
    total = torch.zeros(1).cuda()
    for batch in loader:
        total += batch.sum()
    dist.all_reduce(total)
    return total


def through_helper(loader):
    for epoch in range(10):
        try:
            validate(loader)  # want CV301 "all_reduce on the default group \(WORLD\) is skipped on a rank whose work before it raises"
        except Exception as error:
            print("validation failed:", error)
        dist.barrier()


def fsdp_forward(loader):
    model = FSDP(torch.nn.Linear(4, 4).cuda())
    for epoch in range(10):
        try:
            total = 0.0
            with torch.no_grad():
                for batch in loader:
                    x = batch * 2
                    total += model(x).sum().item()  # want CV301 "is skipped on a rank whose work before it raises"
        except Exception as error:
            print("validation failed:", error)
        dist.barrier()
