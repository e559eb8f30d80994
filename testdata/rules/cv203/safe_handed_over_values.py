# What another thread or process hands over is no kernel this thread
# queued: an item taken from a queue (a batch number) and an RPC's result
# (CPU rows from an embedding server, or CUDA tensors TensorPipe already
# ordered on the receiving stream) can be read on a side stream at once.
import queue

import torch
import torch.distributed.rpc as rpc


def lookup(ids):
    return [torch.zeros(len(i), 8) for i in ids]


class EmbeddingCache:
    work = queue.PriorityQueue()

    def __init__(self, device):
        self.device = device
        self.side = torch.cuda.Stream(device=device)
        self.ttl = torch.full((1000,), -1, dtype=torch.long, device=device)
        self.table = torch.zeros(1000, 8, device=device)

    def refill(self, slots):
        last = -1
        while not EmbeddingCache.work.empty():
            batch, _payload = EmbeddingCache.work.get(block=True)
            last = batch
        with torch.cuda.stream(self.side):
            self.ttl[slots] = last
        torch.cuda.current_stream().wait_stream(self.side)

    def prefetch(self, ids):
        fut = rpc.rpc_async("emb_server", lookup, args=(ids,))
        fetched = fut.wait()
        with torch.cuda.stream(self.side):
            for vals in fetched:
                vals = vals.to(self.device)
                self.table[: len(vals)] = vals
        torch.cuda.current_stream().wait_stream(self.side)

    def fetch_now(self, ids):
        rows = rpc.rpc_sync("emb_server", lookup, args=(ids,))
        more = rpc.rpc_async("emb_server", lookup, args=(ids,)).wait()
        with torch.cuda.stream(self.side):
            self.table[: len(rows[0])] = rows[0].to(self.device)
            self.table[: len(more[0])] = more[0].to(self.device)
        torch.cuda.current_stream().wait_stream(self.side)
