# Exits inside a rank test's arm that no other rank waits for: nothing
# collective follows the rank test, the exit raises (the launcher stops
# the job), the exit leaves a loop rather than the function, or the rank
# arm leaves on every path anyway (its own early exit, reported there when
# collectives follow).
import os
import sys

import torch
import torch.distributed as dist


def log_only(args, metrics):
    if dist.get_rank() == 0:
        if not metrics:
            return
        print(metrics)


def checked(args, model):
    if dist.get_rank() == 0:
        if os.path.exists(args.log_path):
            raise RuntimeError("experiment exists")
    dist.barrier()


def scan(args, paths):
    if dist.get_rank() == 0:
        for p in paths:
            if os.path.exists(p):
                break
            print(p)
    dist.barrier()


def report(args, metrics):
    if dist.get_rank() != 0:
        return
    if not metrics:
        return
    print(metrics)


def broadcast_state(state, group):
    # torch's FSDP _broadcast_state: rank 0 returns a state it need not
    # send; the others return on the description rank 0 broadcast before,
    # so both sides leave together.
    if dist.get_rank(group) == 0:
        if not isinstance(state, torch.Tensor) or state.dim() == 0:
            return state
        tensor = state.to("cuda")
    else:
        if isinstance(state, torch.Tensor):
            return state
        tensor = torch.zeros(state.shape, device="cuda")
    dist.broadcast(tensor, src=0, group=group)
    return tensor


def compile_dependencies(args):
    # Megatron-DeepSpeed's _compile_dependencies: rank 0 aborts with a
    # message, a failure that the launcher tears the job down for.
    if args.rank == 0:
        error = "constraints for invoking optimized fused softmax kernel are not met"
        if args.abort_on_unmet_fused_kernel_constraints:
            sys.exit(f"\n\nERROR: {error} and --abort-on-unmet-fused-kernel-constraints was passed. Aborting.\n\n")
        else:
            print(f"WARNING: {error}.", flush=True)
    dist.barrier()
