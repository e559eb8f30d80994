# Whether the previous round of async all-reduces has finished, asked
# through a helper that returns True under a completion probe: each rank
# answers at its own moment, so some issue the next round and others skip
# it (Hierarchical Local SGD's readiness check).
import torch.distributed as dist

pending = {}


def not_ready(reps):
    for _, rep in reps.items():
        if not rep.is_completed():
            return True
    return False


def step(grads, force=False):
    local = not_ready(pending)
    if local and not force:
        return
    for name, g in grads.items():
        pending[name] = dist.all_reduce(g, async_op=True)  # want CV301 "runs only on the ranks that do not leave early at \S+:19 \(`local and not force`\)"
        if force:
            pending[name].wait()
