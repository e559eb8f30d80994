# The epoch read under the check is agreed on (rank 0's answer broadcast)
# before it bounds the loop; a value computed from the loaded data in
# other ways (a learning rate) is not a position and bounds nothing.
import os

import torch
import torch.distributed as dist


def main(args, t):
    start = 0
    lr = args.lr
    if os.path.isfile(args.ckpt):
        state = torch.load(args.ckpt)
        start = state["epoch"] + 1
        lr = state["lr"] * 0.5
    box = [start]
    dist.broadcast_object_list(box, src=0)
    start = box[0]
    for epoch in range(start, args.epochs):
        dist.all_reduce(t)
    print(lr)
