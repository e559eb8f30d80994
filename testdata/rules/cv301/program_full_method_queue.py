# The program defines a full() of its own, but this receiver is a
# queue: its fullness depends on a producer thread's timing, different
# on each rank.
import queue

import torch.distributed as dist


class Bucket:
    def full(self):
        return False


def drain(buf, group):
    q = queue.Queue(maxsize=4)
    if q.full():
        dist.broadcast(buf, src=0, group=group)  # want CV301 "broadcast .*reads the clock.*asks whether concurrent work has finished"
