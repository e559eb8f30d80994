# The same reload step, but the handle is rebound without a poll or a wait
# first: the earlier broadcast is dropped unwaited.
import time

import torch.distributed as dist


def train(model, loader, flag, interval):
    gloo_group = dist.new_group(backend="gloo")
    handle = dist.broadcast(flag, src=1, group=gloo_group, async_op=True)  # want CV401 "rebound"
    for it, batch in enumerate(loader):
        if it % interval == 0:
            dist.broadcast(flag, src=0, group=gloo_group)
            time.sleep(5)
            handle = dist.broadcast(flag, src=1, group=gloo_group, async_op=True)  # want CV401 "rebound"
        model(batch).sum().backward()
    handle.wait()


def drained(group, flag):
    # The handle made before the break is left pending after the loop,
    # and nothing waits it there.
    for attempt in range(3):
        if attempt == 1:
            work = dist.broadcast(flag, src=0, group=group, async_op=True)  # want CV401 "never waited"
            break
    return flag
