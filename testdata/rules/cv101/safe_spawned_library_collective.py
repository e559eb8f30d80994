# The same library collectives run by a worker on a group of their own
# (gloo, for the checkpoint; one worker, so the saves queued in the loop
# run one after another), or by a thread that is joined before the main
# thread communicates.
import threading
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def train(model, batches, t):
    ckpt_group = dist.new_group(backend="gloo")
    saver = ThreadPoolExecutor(max_workers=1)
    for i, batch in enumerate(batches):
        model(batch).sum().backward()
        dist.all_reduce(t)
        if i % 100 == 0:
            saver.submit(dcp.save, model.state_dict(), checkpoint_id=f"ck/{i}", process_group=ckpt_group)


def warm_up(t):
    th = threading.Thread(target=dist.barrier)
    th.start()
    th.join()
    dist.all_reduce(t)
