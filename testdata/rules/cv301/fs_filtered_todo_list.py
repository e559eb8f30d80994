# The cells still to run are the grid less those a results file lists;
# each host reads its own copy (when it has one), so hosts can build
# todo lists of different lengths and run different numbers of barriers.
import json
import os

import torch.distributed as dist


def main():
    dist.init_process_group(backend="nccl")
    res = {}
    if os.path.exists("results.json"):
        res = json.load(open("results.json"))
    todo = [k for k in range(4) if str(k) not in res]
    for k in todo:
        dist.barrier()  # want CV301 "once per element of `todo`"
