# The warm-up helper of safe_warmup_before_thread.py, called again after
# the worker starts: two device communicators from two threads.
import threading

import torch
import torch.distributed as dist


def warm_up():
    t = torch.zeros(1, device="cuda")
    dist.all_reduce(t)


def worker(group):
    t = torch.zeros(1, device="cuda")
    while True:
        dist.broadcast(t, src=0, group=group)  # want CV103 "broadcast on group new_group@.* is issued from a thread"


def main():
    dist.init_process_group("nccl")
    side = dist.new_group()
    warm_up()
    th = threading.Thread(target=worker, args=(side,), daemon=True)
    th.start()
    warm_up()  # again, now next to the worker's group
    while True:
        pass


if __name__ == "__main__":
    main()
