# The main thread's collective on the default group runs in a warm-up
# helper that the function starting the worker calls above the spawn: the
# worker's own group is driven only after it, never at the same time.
import threading

import torch
import torch.distributed as dist


def warm_up():
    t = torch.zeros(1, device="cuda")
    dist.all_reduce(t)


def worker(group):
    t = torch.zeros(1, device="cuda")
    while True:
        dist.broadcast(t, src=0, group=group)


def main():
    dist.init_process_group("nccl")
    side = dist.new_group()
    warm_up()
    th = threading.Thread(target=worker, args=(side,), daemon=True)
    th.start()
    while True:
        pass


if __name__ == "__main__":
    main()
