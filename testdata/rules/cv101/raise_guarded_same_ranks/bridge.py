# The receiver thread and a blocking receive both run on the ranks other
# than 0: a caller that uses both drives the group from two threads.
import threading

import torch
import torch.distributed as dist


class Bridge:
    def __init__(self, rank):
        self.rank = rank
        self.group = None

    def setup(self):
        self.group = dist.new_group(backend="nccl")

    def receive(self, t):
        if self.rank == 0:
            raise RuntimeError("receive() never on rank 0")
        dist.broadcast(t, src=0, group=self.group)

    def start_receiver(self):
        if self.rank == 0:
            raise RuntimeError("receiver never runs on rank 0")

        def loop():
            while True:
                buf = torch.zeros(1, device="cuda")
                dist.broadcast(buf, src=0, group=self.group)  # want CV101 "thread started at"
                if buf.item() < 0:
                    break

        threading.Thread(target=loop, daemon=True).start()
