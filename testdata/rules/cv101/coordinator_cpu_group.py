# A vLLM group coordinator's cpu_group is one gloo group per coordinator:
# the EPLB worker thread's all_reduce on it meets the main thread's
# in_the_same_node_as, which broadcasts over the group it is given.
# (Imported from the vllm.distributed package, which re-exports
# parallel_state.)
import threading

import torch
import torch.distributed as dist
from vllm.distributed import get_eplb_group, in_the_same_node_as


def worker():
    while True:
        flag = torch.tensor([1], dtype=torch.int32)
        dist.all_reduce(flag, group=get_eplb_group().cpu_group)  # want CV101 "get_eplb_group\(\)\.cpu_group"


def main():
    threading.Thread(target=worker, daemon=True).start()
    cpu_group = get_eplb_group().cpu_group
    for src in range(cpu_group.size()):
        in_the_same_node_as(cpu_group, src)
