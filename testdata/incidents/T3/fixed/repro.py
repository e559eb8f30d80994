import functools
from datetime import timedelta

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


@functools.lru_cache(maxsize=None)
def _gloo_group():
    return dist.new_group(backend="gloo")


@functools.lru_cache(maxsize=None)
def _barrier_group():
    return dist.new_group(backend="gloo")


def save_checkpoint(state, path):
    pg = _gloo_group()
    fut = dcp.async_save(state, checkpoint_id=path, process_group=pg)
    dist.monitored_barrier(group=_barrier_group(), timeout=timedelta(minutes=10))
    return fut


def train(model, opt, steps, ckpt_dir):
    pending = None
    for step in range(steps):
        loss = model.training_step(step)
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 500 == 0:
            if pending is not None:
                pending.result()
            pending = save_checkpoint({"model": model.state_dict()}, f"{ckpt_dir}/{step}")
