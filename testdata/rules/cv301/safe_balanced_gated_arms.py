# Both arms of the rank test issue the barrier under the same test every
# rank answers alike, so the ranks issue it on the same passes: the
# else written as a nested if, and disttgl's elif on a flag that the
# rank arm's own test also requires.
import os

import torch.distributed as dist

RANK = int(os.environ["RANK"])


def nested(iters):
    for i in range(iters):
        if RANK == 0:
            if i % 100 == 0:
                dist.barrier()
        else:
            if i % 100 == 0:
                dist.barrier()


def flagged(args, iters):
    for i in range(iters):
        if args.partial_eval and RANK == 0:
            if i % args.interval == 0:
                print("evaluating")
                dist.barrier()
        elif args.partial_eval:
            if i % args.interval == 0:
                dist.barrier()
