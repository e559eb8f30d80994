# A value handed over by an RPC and then computed on by this thread's
# current stream is that thread's write: the side stream must wait for it.
import torch
import torch.distributed.rpc as rpc


def lookup(ids):
    return torch.zeros(len(ids), 8)


class Prefetcher:
    def __init__(self, device):
        self.device = device
        self.side = torch.cuda.Stream(device=device)
        self.table = torch.zeros(1000, 8, device=device)

    def prefetch(self, ids):
        fut = rpc.rpc_async("emb_server", lookup, args=(ids,))
        rows = fut.wait().to(self.device) * 2
        with torch.cuda.stream(self.side):
            self.table[: len(rows)] = rows  # want CV203 "\"rows\" is written on the current stream"
        torch.cuda.current_stream().wait_stream(self.side)
