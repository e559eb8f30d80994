# The same factory, called once with barrier=True from the callback: its
# closures barrier on the callback's thread while the main thread
# barriers too.
import json

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def run_rank_n(func, rank=0, barrier=False):
    def func_rank_n(*args, **kwargs):
        out = func(*args, **kwargs)
        if barrier:
            dist.barrier()  # want CV101 "barrier on the default group"
        return out

    def func_rank_other(*args, **kwargs):
        if barrier:
            dist.barrier()  # want CV101 "barrier on the default group"

    return func_rank_n if dist.get_rank() == rank else func_rank_other


def save(state, path, step):
    fut = dcp.async_save(state, checkpoint_id=path, process_group=dist.new_group(backend="gloo"))

    def _done(_f):
        run_rank_n(json.dump, barrier=True)({"step": step}, open("latest.json", "w"))

    fut.add_done_callback(_done)
    return fut


def main():
    dist.init_process_group("nccl")
    state = {"w": torch.zeros(4)}
    fut = save(state, "/ckpt/1", 1)
    fut.result()
    dist.barrier()
