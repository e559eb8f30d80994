# The submitting thread waits for each task before its own collectives:
# result() without a time limit, returned or assigned; or a
# `with ThreadPoolExecutor()` block, whose exit waits for the task even
# when result(timeout=…) gave up first.
import concurrent.futures

import torch
import torch.distributed as dist

executor = concurrent.futures.ThreadPoolExecutor(max_workers=4)


def evaluate():
    flag = [False]
    dist.broadcast_object_list(flag, src=0)
    return flag[0]


def run_eval():
    future = executor.submit(evaluate)
    return future.result()


def run_eval_assigned():
    future = executor.submit(evaluate)
    done = future.result(timeout=None)
    return done


def eval_in_block():
    try:
        with concurrent.futures.ThreadPoolExecutor() as ex:
            future = ex.submit(evaluate)
            return future.result(timeout=1)
    except concurrent.futures.TimeoutError:
        return None


def main():
    dist.init_process_group("gloo")
    for _ in range(10):
        run_eval()
        run_eval_assigned()
        eval_in_block()
        dist.all_reduce(torch.ones(1))
