"""A heartbeat thread and the training loop share the default group.

Both threads issue collectives on WORLD; each rank interleaves them
differently, so rank 0's heartbeat barrier can pair with rank 1's gradient
all_reduce. collvet reports CV101 on the barrier. The fix: give the
heartbeat its own group (dist.new_group(backend="gloo"), created on every
rank) or run it on the main thread between steps.

It also reports CV301 (a warning) on the same barrier: each rank's
heartbeat sees `stop` set at its own moment, so one rank can issue a last
barrier that the others, already stopped, never match. Agree on stopping
first (all-reduce a stop flag at the end of training), or join the thread
before any later collective and give its group nothing else to do.
"""
import threading
import time

import torch.distributed as dist


def heartbeat(stop):
    while not stop.is_set():
        dist.barrier()
        time.sleep(30)


def train(model, loader):
    stop = threading.Event()
    threading.Thread(target=heartbeat, args=(stop,), daemon=True).start()
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)
    stop.set()
