# The dict item a signal handler sets is all-reduced (MAX) before the ranks
# branch on it: every rank takes the same arm.
import signal
import sys
import torch
import torch.distributed as dist

preemption_flag = dict(flag=False)


def set_preemption_flag(signum, frame):
    preemption_flag["flag"] = True


def save(model):
    dist.barrier()


def train(model, steps):
    signal.signal(signal.SIGUSR2, set_preemption_flag)
    dist.init_process_group("nccl")
    for step in range(steps):
        t = model(step)
        dist.all_reduce(t)
        f = torch.tensor([1 if preemption_flag["flag"] else 0], device="cuda")
        dist.all_reduce(f, op=dist.ReduceOp.MAX)
        if f.item() > 0:
            save(model)
            sys.exit(0)


if __name__ == "__main__":
    train(None, 10)
