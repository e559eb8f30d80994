# The P2POp entries are appended to an attribute list by one method and
# committed by another (a ring-attention communicator): their group is
# still the ring's, driven from a thread while the main thread drives
# WORLD.
import threading

import torch.distributed as dist

ring = dist.new_group([0, 1])


class RingComm:
    def __init__(self, pg):
        self._pg = pg
        self._ops = []
        self._reqs = None

    def send_recv(self, x, y, peer):
        self._ops.append(dist.P2POp(dist.isend, x, peer, group=self._pg))
        self._ops.append(dist.P2POp(dist.irecv, y, peer, group=self._pg))

    def commit(self):
        self._reqs = dist.batch_isend_irecv(self._ops)  # want CV103 "batch_isend_irecv on group new_group@"

    def wait(self):
        for r in self._reqs:
            r.wait()
        self._reqs = None
        self._ops = []


def exchange(x, y):
    c = RingComm(ring)
    c.send_recv(x, y, 1)
    c.commit()
    c.wait()


def main(x, y, t):
    th = threading.Thread(target=exchange, args=(x, y))
    th.start()
    dist.all_reduce(t)
    th.join()
