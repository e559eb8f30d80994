# A vLLM group coordinator's device_group is the coordinator's own NCCL
# group: a thread's all_reduce on it meets the main thread's.
import threading

import torch
import torch.distributed as dist
from vllm.distributed.parallel_state import get_tp_group


def worker(t):
    dist.all_reduce(t, group=get_tp_group().device_group)  # want CV101 "get_tp_group"


def main(t):
    threading.Thread(target=worker, args=(t,), daemon=True).start()
    get_tp_group().all_reduce(t)
