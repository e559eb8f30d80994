# result(timeout=…) on the submitted future can return while the task
# still has its collective to issue: the submitting thread goes on to its
# own on the same group.
import concurrent.futures

import torch
import torch.distributed as dist

executor = concurrent.futures.ThreadPoolExecutor()


def evaluate():
    flag = [False]
    dist.broadcast_object_list(flag, src=0)  # want CV101 "broadcast_object_list on the default group"
    return flag[0]


def run():
    try:
        return executor.submit(evaluate).result(timeout=1)
    except concurrent.futures.TimeoutError:
        return None


def main():
    dist.init_process_group("gloo")
    for _ in range(10):
        run()
        dist.all_reduce(torch.ones(1))
