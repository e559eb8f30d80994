# An RPC sent once to each worker of a list, and waited: each worker runs
# it once, on one thread of its pool, with no other collective in flight
# there (dearth's parameter sync).
import torch
import torch.distributed as dist
import torch.distributed.rpc as rpc


def _sync_model_param(model):
    for p in model.parameters():
        dist.broadcast(p, src=0)


def sync_students(names, model):
    futs = []
    for name in names:
        futs.append(rpc.rpc_async(name, _sync_model_param, args=(model,)))
    torch.futures.wait_all(futs)
