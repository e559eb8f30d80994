# Sends and receives on one group, each submitted to its own
# single-worker executor: two threads drive the group at once, and
# nothing orders a send of one against a receive of the other.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class Pipe:
    def __init__(self, ranks, peer):
        self.group = dist.new_group(ranks)
        self.peer = peer
        self.send_pool = ThreadPoolExecutor(max_workers=1)
        self.recv_pool = ThreadPoolExecutor(max_workers=1)

    def _send_impl(self, tensor):
        dist.send(tensor, self.peer, group=self.group)  # want CV101 "send on group .* pool worker"

    def _recv_impl(self, shape):
        buf = torch.empty(shape)
        dist.recv(buf, self.peer, group=self.group)  # want CV101 "recv on group .* pool worker"
        return buf

    def send_tensor(self, tensor):
        self.send_pool.submit(self._send_impl, tensor)

    def recv_tensor(self, shape):
        return self.recv_pool.submit(self._recv_impl, shape).result()
