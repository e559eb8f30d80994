# open_clip's main: only the master checks whether the experiment exists
# and returns when it does, whatever the file system says to the others;
# they go on into DDP's constructor, which broadcasts from rank 0, and
# wait for it forever.
import os
import sys

import torch
import torch.distributed as dist


def is_master(args):
    return args.rank == 0


def main(args, model):
    dist.init_process_group("nccl")
    if is_master(args):
        os.makedirs(args.logs, exist_ok=True)
        if os.path.exists(args.log_path) and not args.resume:
            print("experiment exists")
            return -1
    model = torch.nn.parallel.DistributedDataParallel(model)  # want CV301 "leave early .*is_master\(args\)` and then `os.path.exists"
    return model


def save(args, state):
    if dist.get_rank() == 0:
        if not args.save:
            return
        torch.save(state, args.path)
    dist.barrier()  # want CV301 "barrier .* leave early .*dist.get_rank\(\) == 0` and then `not args.save"


def compile_dependencies(args):
    # Megatron-DeepSpeed's _compile_dependencies with a clean exit: rank 0
    # leaves with status 0, which the launcher waits out, and the others
    # wait in the barrier.
    if args.rank == 0:
        if args.abort_on_unmet_fused_kernel_constraints:
            sys.exit(0)
        print("WARNING: constraints not met.", flush=True)
    dist.barrier()  # want CV301 "runs only on the ranks that do not leave early"
