# A `with ThreadPoolExecutor()` block joins its tasks on exit, but a
# collective inside the block, after the submit, runs alongside the task.
import concurrent.futures

import torch
import torch.distributed as dist

executor = concurrent.futures.ThreadPoolExecutor()


def evaluate():
    flag = [False]
    dist.broadcast_object_list(flag, src=0)  # want CV101 "broadcast_object_list on the default group"
    return flag[0]


def run():
    # The block waits for the task only at its end: the all_reduce inside
    # it runs while the task may still be broadcasting.
    with concurrent.futures.ThreadPoolExecutor() as ex:
        future = ex.submit(evaluate)
        dist.all_reduce(torch.ones(1))
        return future.result()


def main():
    dist.init_process_group("gloo")
    for _ in range(10):
        run()
        dist.all_reduce(torch.ones(1))
