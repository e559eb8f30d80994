# A coordinator's cpu_group and its device group are two communicators:
# the worker thread alone uses the EPLB coordinator's gloo group, the main
# thread uses its device group and another coordinator's gloo group.
import threading

import torch
import torch.distributed as dist
from vllm.distributed.parallel_state import get_eplb_group, get_tp_group


def worker():
    while True:
        flag = torch.tensor([1], dtype=torch.int32)
        dist.all_reduce(flag, group=get_eplb_group().cpu_group)


def main(x):
    threading.Thread(target=worker, daemon=True).start()
    get_eplb_group().all_reduce(x)
    dist.all_reduce(x, group=get_eplb_group().device_group)
    dist.barrier(group=get_tp_group().cpu_group)
