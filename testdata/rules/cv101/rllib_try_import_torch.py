# RLlib's modules take torch from its import shim. One thread per GPU
# tower all-reduces its gradients on the default group (the shape of
# rllib/policy/torch_policy_v2.py's multi-GPU gradient calculation).
import threading

from ray.rllib.utils.framework import try_import_torch

torch, nn = try_import_torch()


def grad_calc(towers):
    def _worker(idx, grads):
        for g in grads:
            torch.distributed.all_reduce(g, op=torch.distributed.ReduceOp.SUM)  # want CV101 "runs on several threads at once"

    threads = [threading.Thread(target=_worker, args=(i, t)) for i, t in enumerate(towers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
