# A reload step every few passes (emdr2's retriever refresh): the handle is
# rebound only inside the poll's completed arm, and the rebound broadcast
# leaves the inner loop through its break, pending until the next reload
# or the drain after the loop.
import time

import torch.distributed as dist


def train(model, loader, gloo_group, flag, interval):
    handle = dist.broadcast(flag, src=1, group=gloo_group, async_op=True)
    for it, batch in enumerate(loader):
        if it % interval == 0:
            while True:
                if handle.is_completed():
                    dist.broadcast(flag, src=0, group=gloo_group)
                    handle = dist.broadcast(flag, src=1, group=gloo_group, async_op=True)
                    break
                else:
                    time.sleep(5)
        model(batch).sum().backward()
    while not handle.is_completed():
        time.sleep(5)
