# PipeDream's CommunicationHandler: one pair of groups per connection and
# tag, made in a loop; each helper thread is handed its own group.
import threading

import torch
import torch.distributed as dist


def recv_helper(tag, group, n):
    for _ in range(n):
        t = torch.zeros(4)
        dist.broadcast(t, src=0, group=group)


def send_helper(tag, group, n):
    for _ in range(n):
        t = torch.ones(4)
        dist.broadcast(t, src=1, group=group)


class Handler:
    def __init__(self, connections):
        self.groups = {}
        for src, dst, tag in connections:
            self.groups[(src, dst, tag)] = {
                "forward": dist.new_group(ranks=[src, dst]),
                "backward": dist.new_group(ranks=[src, dst]),
            }
        self.connections = connections

    def start_helper_thread(self, func, args):
        t = threading.Thread(target=func, args=args)
        t.start()

    def start_helper_threads(self, n):
        for src, dst, tag in self.connections:
            self.start_helper_thread(recv_helper, (tag, self.groups[(src, dst, tag)]["forward"], n))
        for src, dst, tag in self.connections:
            self.start_helper_thread(send_helper, (tag, self.groups[(src, dst, tag)]["backward"], n))
