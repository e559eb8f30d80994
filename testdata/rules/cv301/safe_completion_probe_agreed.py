# The readiness of the previous round is agreed on by every rank (an
# all-reduced flag) before it decides whether to issue the next one.
import torch
import torch.distributed as dist

pending = {}


def not_ready(reps):
    for _, rep in reps.items():
        if not rep.is_completed():
            return True
    return False


def step(grads):
    flag = torch.tensor([1.0 if not_ready(pending) else 0.0])
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    if flag.item() > 0:
        return
    for name, g in grads.items():
        pending[name] = dist.all_reduce(g, async_op=True)
