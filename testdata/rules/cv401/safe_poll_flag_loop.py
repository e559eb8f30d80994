# The loop polls the broadcast and leaves only by the break taken once it
# completed: the flag is cleared right before that break and nowhere else,
# so the test is never false at the loop's head.
import torch
import torch.distributed as dist


def work():
    pass


def train(group):
    req = dist.broadcast(torch.zeros(1), src=0, async_op=True, group=group)
    keep_going = True
    steps = 0
    while keep_going:
        if req.is_completed():
            keep_going = False
            break
        work()
        steps += 1
    return steps
