# The flag is also cleared where the work may still be running (a step
# budget): the loop can end at its head with the broadcast pending.
import torch
import torch.distributed as dist


def work():
    pass


def train(group, budget):
    req = dist.broadcast(torch.zeros(1), src=0, async_op=True, group=group)  # want CV401 "not waited"
    keep_going = True
    steps = 0
    while keep_going:
        if req.is_completed():
            keep_going = False
            break
        work()
        steps += 1
        if steps > budget:
            keep_going = False
    return steps
