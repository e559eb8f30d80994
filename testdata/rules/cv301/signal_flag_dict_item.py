# A signal handler stores into a module dict (`preemption_flag["flag"] =
# True`, Meta lingua's train loop): each rank sees the item set at its own
# step, and the save's barrier runs on some ranks only.
import signal
import sys
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
        if preemption_flag["flag"]:
            save(model)  # want CV301 "barrier on the default group \(WORLD\) depends on `preemption_flag\[\"flag\"\]`"
            sys.exit(0)


if __name__ == "__main__":
    train(None, 10)
