# Sent twice to each worker at once (the list joined with itself), or
# without waiting for the previous round: two of a worker's pool threads
# broadcast at once, in a different order on each worker.
import torch
import torch.distributed as dist
import torch.distributed.rpc as rpc


def _sync_buffers(model):
    for b in model.buffers():
        dist.broadcast(b, src=0)  # want CV101 "several threads at once"


def sync_twice(names, model):
    futs = [rpc.rpc_async(name, _sync_buffers, args=(model,)) for name in names + names]
    torch.futures.wait_all(futs)
