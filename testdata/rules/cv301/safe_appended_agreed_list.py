# A list built with append from values every rank holds alike, or from a
# listing that rank 0 makes and broadcasts.
from pathlib import Path

import torch.distributed as dist


def steps(n, t):
    todo = []
    for i in range(n):
        todo.append(i)
    if todo:
        dist.all_reduce(t)
    return t


def agreed_listing(output_dir, t):
    found = []
    if dist.get_rank() == 0:
        for x in Path(output_dir).glob("iter_*"):
            found.append(str(x))
    box = [found]
    dist.broadcast_object_list(box, src=0)
    if box[0]:
        dist.all_reduce(t)
    return t
