# A handle handed to a method of the program named like a wait
# (self.synchronize(req)) is that method's to wait, and it does
# (diloco-swarm's pipeline communicator).
from typing import Optional

import torch
import torch.distributed as dist


class Comm:
    def __init__(self, shape):
        self.shape = shape

    def synchronize(self, req: Optional[dist.Work] = None) -> None:
        if req is not None:
            req.wait()
        torch.cuda.synchronize()

    def send_to(self, tensor, peer, tag=0):
        req = dist.isend(tensor.detach().clone(), dst=peer, tag=tag)
        self.synchronize(req)

    def recv_from(self, peer, tag=0):
        tensor = torch.empty(self.shape, device="cuda")
        req = dist.irecv(tensor, src=peer, tag=tag)
        self.synchronize(req)
        return tensor
