# Two ways to gossip over the same per-edge group: a thread of the
# training process, or (another wrapper) a process of its own that
# multiprocessing starts. The process's collectives never run in the
# training process, so they do not race the thread (stochastic gradient
# push's distributed.py beside ad_psgd.py).
import multiprocessing as mp
import threading

import torch
import torch.distributed as dist


class Edge:
    def __init__(self, src, dest):
        self.src = src
        self.process_group = dist.new_group([src, dest])


def mix(edge, buf):
    dist.broadcast(buf, src=edge.src, group=edge.process_group)


def gossip_thread(edge):
    while True:
        mix(edge, torch.zeros(4))


def gossip_process():
    dist.init_process_group("nccl")
    edge = Edge(0, 1)
    while True:
        mix(edge, torch.zeros(4))


def train(use_process):
    dist.init_process_group("nccl")
    edge = Edge(0, 1)
    if use_process:
        mp.Process(target=gossip_process, daemon=True).start()
    else:
        threading.Thread(target=gossip_thread, args=(edge,), daemon=True).start()


if __name__ == "__main__":
    train(False)
