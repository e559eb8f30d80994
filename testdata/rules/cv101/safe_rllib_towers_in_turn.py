# The same shim, but the towers are processed one after another on the
# calling thread.
from ray.rllib.utils.framework import try_import_torch

torch, nn = try_import_torch()


def grad_calc(towers):
    def _worker(idx, grads):
        for g in grads:
            torch.distributed.all_reduce(g, op=torch.distributed.ReduceOp.SUM)

    for i, t in enumerate(towers):
        _worker(i, t)
