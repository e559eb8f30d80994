# Rank 0 reads the results file and broadcasts what it found: every rank
# filters the grid against the same answer (and a filter on the
# configuration is the same everywhere).
import json
import os

import torch.distributed as dist


def main(skip):
    dist.init_process_group(backend="nccl")
    box = [{}]
    if dist.get_rank() == 0 and os.path.exists("results.json"):
        box[0] = json.load(open("results.json"))
    dist.broadcast_object_list(box, src=0)
    res = box[0]
    todo = [k for k in range(4) if str(k) not in res]
    for k in todo:
        dist.barrier()
    rest = [k for k in range(4) if k not in skip]
    for k in rest:
        dist.barrier()
