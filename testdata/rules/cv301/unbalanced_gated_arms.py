# The arms gate the barrier by different tests: the ranks issue it on
# different passes.
import os

import torch.distributed as dist

RANK = int(os.environ["RANK"])


def flagged(args, iters):
    for i in range(iters):
        if args.partial_eval and RANK == 0:
            if i % args.interval == 0:
                dist.barrier()  # want CV301 "args.partial_eval and RANK == 0"
        elif args.partial_eval:
            if i % args.other_interval == 0:
                dist.barrier()
