# The same, sent from a comprehension over the workers and each future
# waited.
import torch.distributed as dist
import torch.distributed.rpc as rpc


def _sync_grads(model):
    for p in model.parameters():
        dist.all_reduce(p.grad)


def sync_grads(names, model):
    futs = [rpc.rpc_async(name, _sync_grads, args=(model,)) for name in names]
    for f in futs:
        f.wait()
