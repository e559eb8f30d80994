# The two halves split by the rank do not issue the same collective: the
# sender broadcasts while the receiver all-reduces; they pair nothing.
import torch
import torch.distributed as dist


def rank0():
    return dist.get_rank() == 0


class Comm:
    def __init__(self):
        self.meta = torch.zeros(4, device="cuda")

    def send(self):
        if not rank0():
            return
        dist.broadcast(self.meta, src=0)  # want CV301 "do not leave early"

    def recv(self):
        if rank0():
            return
        dist.all_reduce(self.meta)  # want CV301 "do not leave early"
