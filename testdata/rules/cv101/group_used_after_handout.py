# The same group used by the main thread after the gossip thread holds
# it: the two threads launch on it in different orders on each rank.
import threading

import torch
import torch.distributed as dist


class Edge:
    def __init__(self, src, dest):
        self.process_group = dist.new_group([src, dest])

    def sync(self, t):
        dist.all_reduce(t, group=self.process_group)


def gossip(edges, flag):
    t = torch.ones(1, device="cuda")
    while True:
        flag.wait()
        flag.clear()
        for e in edges:
            dist.broadcast(t, src=0, group=e.process_group)  # want CV101 "broadcast on group new_group"


def main():
    dist.init_process_group("nccl")
    edges = [Edge(0, 1), Edge(1, 0)]
    flag = threading.Event()
    threading.Thread(target=gossip, args=(edges, flag), daemon=True).start()
    flag.set()
    t = torch.ones(1, device="cuda")
    for e in edges:
        e.sync(t)
