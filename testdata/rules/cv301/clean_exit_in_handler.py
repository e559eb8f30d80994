# A handler that ends the process with status 0 when a sample fails: the
# launcher takes the exit for success and does not stop the job, and the
# other ranks wait in the gather (VideoLLaMA3's evaluation loop).
import sys
import traceback

import torch.distributed as dist


def infer(x):
    return x * 2


def evaluate(shard):
    rank = dist.get_rank()
    results = []
    for x in shard:
        try:
            y = infer(x)
        except Exception:
            traceback.print_exc()
            exit(0)
        results.append(y)
    gathered = [None] * dist.get_world_size()
    dist.gather_object(results, gathered if rank == 0 else None, dst=0)  # want CV301 "ends the process with status 0"


def evaluate_sys_exit(shard):
    results = []
    for x in shard:
        try:
            results.append(infer(x))
        except:
            sys.exit()
    dist.barrier()  # want CV301 "ends the process with status 0"
