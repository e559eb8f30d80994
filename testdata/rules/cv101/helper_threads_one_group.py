# PipeDream's helper threads, but every connection's threads are handed
# the one group made once: two threads drive it at the same time.
import threading

import torch
import torch.distributed as dist


def recv_helper(tag, group, n):
    for _ in range(n):
        t = torch.zeros(4)
        dist.broadcast(t, src=0, group=group)  # want CV101 "broadcast on group new_group@"


def send_helper(tag, group, n):
    for _ in range(n):
        t = torch.ones(4)
        dist.broadcast(t, src=1, group=group)  # want CV101 "broadcast on group new_group@"


class Handler:
    def __init__(self, connections):
        self.group = dist.new_group(ranks=[0, 1])
        self.connections = connections

    def start_helper_thread(self, func, args):
        t = threading.Thread(target=func, args=args)
        t.start()

    def start_helper_threads(self, n):
        self.start_helper_thread(recv_helper, (0, self.group, n))
        self.start_helper_thread(send_helper, (0, self.group, n))
