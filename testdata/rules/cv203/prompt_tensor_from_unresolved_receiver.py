# The helper hands back the device buffer it received into: sending it
# from the communication stream, which never waited for the current
# stream, can read it before the receive's copy lands.
import torch
import torch.distributed as dist


class Communicator:
    def __init__(self, device):
        self.device = device

    def recv_tokens(self, src):
        buf = torch.empty(16, dtype=torch.int64, device=self.device)
        dist.recv(buf, src=src)
        return buf * 2


def relay(manager, com_stream, rank, world_size):
    tokens = manager.comm.recv_tokens((rank - 1) % world_size)
    with torch.cuda.stream(com_stream):
        w = dist.isend(tokens, (rank + 1) % world_size)  # want CV203 "tokens"
    w.wait()
