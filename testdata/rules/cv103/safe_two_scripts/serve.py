# Two scripts started on their own: the server drives its group from a
# thread, the trainer drives the default group from its main thread.
# They never share a process.
import threading

import torch.distributed as dist


def worker(group, t):
    dist.broadcast(t, 0, group=group)


def main(t):
    dist.init_process_group("nccl")
    g = dist.new_group(backend="nccl")
    threading.Thread(target=worker, args=(g, t)).start()


if __name__ == "__main__":
    main(None)
