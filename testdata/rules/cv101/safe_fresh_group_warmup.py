# fairscale gossip's Edge: the constructor makes a pair group and
# all-reduces a warm-up tensor on it before anyone else holds the group;
# the gossip thread gets the edges only after they are built.
import threading

import torch
import torch.distributed as dist


class Edge:
    def __init__(self, src, dest):
        self.process_group = dist.new_group([src, dest])
        warm = torch.ones(1, device="cuda")
        dist.all_reduce(warm, group=self.process_group)


def gossip(edges, flag):
    t = torch.ones(1, device="cuda")
    while True:
        flag.wait()
        flag.clear()
        for e in edges:
            dist.broadcast(t, src=0, group=e.process_group)


def main():
    dist.init_process_group("nccl")
    edges = [Edge(0, 1), Edge(1, 0)]
    flag = threading.Event()
    threading.Thread(target=gossip, args=(edges, flag), daemon=True).start()
    flag.set()
