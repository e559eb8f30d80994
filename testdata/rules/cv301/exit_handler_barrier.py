# A barrier in a function registered to run at exit: Python runs it after
# an uncaught exception too, so the rank that failed enters the barrier
# while the others wait in the collectives it never joined, and it never
# exits (RT-DETR's dist_utils.cleanup).
import atexit

import torch
import torch.distributed as dist


def is_dist():
    return dist.is_available() and dist.is_initialized()


@atexit.register
def cleanup():
    if is_dist():
        dist.barrier()  # want CV301 "runs at exit \(registered at .*`@atexit.register`\)"
        dist.destroy_process_group()


def teardown():
    dist.barrier()  # want CV301 "runs at exit \(registered at .*`atexit.register\(teardown\)`\)"


def destroy_only():
    # Tearing down issues no barrier: left to CV301's finally checks.
    dist.destroy_process_group()


def main():
    dist.init_process_group("nccl")
    atexit.register(teardown)
    atexit.register(destroy_only)
    for _ in range(10):
        dist.all_reduce(torch.ones(1, device="cuda"))
