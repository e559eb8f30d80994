# A weight bridge whose sender runs on rank 0 only and whose receiver
# thread starts on the other ranks only (each raises elsewhere, atropos's
# NCCL bridge): the thread and the sender never share a process.
import threading

import torch
import torch.distributed as dist


class Bridge:
    def __init__(self, rank):
        self.rank = rank
        self.group = None

    def setup(self):
        self.group = dist.new_group(backend="nccl")

    def send(self, t):
        if self.rank != 0:
            raise RuntimeError("send() only on rank 0 (trainer)")
        dist.broadcast(t, src=0, group=self.group)

    def start_receiver(self):
        if self.rank == 0:
            raise RuntimeError("receiver never runs on rank 0")

        def loop():
            while True:
                buf = torch.zeros(1, device="cuda")
                dist.broadcast(buf, src=0, group=self.group)
                if buf.item() < 0:
                    break

        threading.Thread(target=loop, daemon=True).start()
