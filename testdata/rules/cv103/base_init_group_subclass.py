# fairscale gossip's graph managers: the group is stored by the base
# class's __init__, run for an instance of a subclass that adds nothing
# (the base class itself is never instantiated). The gossip thread's
# broadcast on that pair group and the main thread's all-reduce on WORLD
# are two communicators driven from two threads.
import threading

import torch
import torch.distributed as dist


class GraphManager:
    def __init__(self, world):
        rank = dist.get_rank()
        for a in range(0, world, 2):
            pg = dist.new_group([a, a + 1])
            if rank in (a, a + 1):
                self.process_group = pg


class RingGraph(GraphManager):
    pass


def gossip_loop(graph, flag):
    t = torch.ones(1, device="cuda")
    while True:
        flag.wait()
        flag.clear()
        dist.broadcast(t, src=0, group=graph.process_group)  # want CV103 "broadcast on group new_group@"


def main():
    dist.init_process_group("nccl")
    graph = RingGraph(dist.get_world_size())
    flag = threading.Event()
    threading.Thread(target=gossip_loop, args=(graph, flag), daemon=True).start()
    x = torch.ones(1, device="cuda")
    for _ in range(10):
        flag.set()
        dist.all_reduce(x)


if __name__ == "__main__":
    main()
