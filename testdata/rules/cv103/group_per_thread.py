# M2 (pytorch/pytorch#18300): a NCCL group per thread, used concurrently.
import threading

import torch.distributed as dist


def worker(group, t):
    dist.broadcast(t, 0, group=group)  # want CV103 "another device communicator"


def main(a, b):
    g1 = dist.new_group(backend="nccl")
    g2 = dist.new_group(backend="nccl")
    threading.Thread(target=worker, args=(g1, a)).start()
    threading.Thread(target=worker, args=(g2, b)).start()
