# The same per-edge group driven by a thread and by the main thread of
# one process: the two race on the communicator.
import threading

import torch
import torch.distributed as dist


def bcast(group, buf):
    dist.broadcast(buf, src=0, group=group)  # want CV101 "is issued from a thread"


def worker(group):
    while True:
        bcast(group, torch.zeros(4))


def main():
    dist.init_process_group("nccl")
    group = dist.new_group([0, 1])
    threading.Thread(target=worker, args=(group,), daemon=True).start()
    for _ in range(10):
        bcast(group, torch.zeros(4))


if __name__ == "__main__":
    main()
