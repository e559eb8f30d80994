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


def on_args(args, t):
    # The attribute is replaced by rank 0's answer before it decides.
    ckpt = os.path.join(args.output_dir, "checkpoint-last.pth")
    args.resume = ckpt if os.path.isfile(ckpt) else None
    box = [args.resume]
    dist.broadcast_object_list(box, src=0)
    args.resume = box[0]
    if args.resume is not None:
        dist.barrier()
