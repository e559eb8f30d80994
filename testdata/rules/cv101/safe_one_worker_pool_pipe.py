# vLLM's KV pipe: sends and receives on a group of their own, submitted
# to one single-worker executor (created lazily by whichever comes first),
# which runs them one after another on one thread in submission order.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class Pipe:
    def __init__(self, ranks, peer):
        self.group = dist.new_group(ranks)
        self.peer = peer
        self.transport_thread = None

    def _send_impl(self, tensor):
        dist.send(tensor, self.peer, group=self.group)

    def _recv_impl(self, shape):
        buf = torch.empty(shape)
        dist.recv(buf, self.peer, group=self.group)
        return buf

    def send_tensor(self, tensor):
        if self.transport_thread is None:
            self.transport_thread = ThreadPoolExecutor(max_workers=1)
        self.transport_thread.submit(self._send_impl, tensor)

    def recv_tensor(self, shape):
        if self.transport_thread is None:
            self.transport_thread = ThreadPoolExecutor(max_workers=1)
        return self.transport_thread.submit(self._recv_impl, shape).result()
