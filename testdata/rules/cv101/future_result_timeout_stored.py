# A time limit on result() (positional here) leaves the task running when
# it expires: the submitting thread goes on to its own collective.
import concurrent.futures

import torch
import torch.distributed as dist

executor = concurrent.futures.ThreadPoolExecutor()


def evaluate():
    flag = [False]
    dist.broadcast_object_list(flag, src=0)  # want CV101 "broadcast_object_list on the default group"
    return flag[0]


def run():
    future = executor.submit(evaluate)
    return future.result(5)


def main():
    dist.init_process_group("gloo")
    for _ in range(10):
        run()
        dist.all_reduce(torch.ones(1))
