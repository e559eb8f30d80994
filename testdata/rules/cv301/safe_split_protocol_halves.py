# A communicator with a sending half, which returns at once unless this
# is rank 0, and a receiving half, which returns at once on rank 0, both
# then broadcasting from rank 0 (micro-vllm's TP communicator): each half
# is rank-conditional by design, and the engine calls the sending half on
# rank 0 and the receiving half on the others.
import torch
import torch.distributed as dist


def rank0():
    return dist.get_rank() == 0


class TPComm:
    def __init__(self):
        self.meta = torch.zeros(4, dtype=torch.int64, device="cuda")

    def bcast_batch(self, size):
        if dist.get_world_size() <= 1 or not rank0():
            return
        self.meta[0] = size
        dist.broadcast(self.meta, src=0)

    def recv_batch(self):
        if dist.get_world_size() <= 1 or rank0():
            return None
        dist.broadcast(self.meta, src=0)
        return int(self.meta[0].item())
