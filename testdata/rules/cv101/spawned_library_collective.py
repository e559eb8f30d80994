# A library collective handed straight to a thread or a pool, with no
# function of the program around it (a hand-rolled async checkpoint, T2):
# the worker issues it while the main thread goes on communicating.
import threading
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def train(model, batches, t):
    saver = ThreadPoolExecutor(max_workers=1)
    pending = None
    for i, batch in enumerate(batches):
        model(batch).sum().backward()
        dist.all_reduce(t)
        if i % 100 == 0:
            if pending is not None:
                pending.result()
            pending = saver.submit(dcp.save, model.state_dict(), checkpoint_id=f"ck/{i}")  # want CV101 "save on the default group"


def heartbeat(t):
    threading.Thread(target=dist.barrier, daemon=True).start()  # want CV101 "barrier on the default group"
    dist.all_reduce(t)


def save_shards(shards):
    # Four workers run the saves at once: on each rank they reach the
    # group in a different order.
    group = dist.new_group(backend="gloo")
    pool = ThreadPoolExecutor(max_workers=4)
    for i, shard in enumerate(shards):
        pool.submit(dcp.save, shard, checkpoint_id=f"shard/{i}", process_group=group)  # want CV101 "several threads at once"
