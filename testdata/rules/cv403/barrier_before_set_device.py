# A barrier between the group's creation and a set_device that binds
# some other device than the rank's: ProcessGroupNCCL runs the barrier on
# the GPU it guesses (global rank modulo the GPUs per node), which need
# not be the one bound later. A barrier before a set_device of the local
# rank is not reported (safe_barrier_before_rank_binding).
import torch
import torch.distributed as dist


def main(args):
    dist.init_process_group("nccl")  # want CV403 "barrier at .* runs before it, on the GPU PyTorch guesses"
    dist.barrier()
    torch.cuda.set_device(args.gpu_id)
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)


def main_then_collective(local_rank):
    # The barrier is fine; the all_reduce of a tensor made on "cuda"
    # before the binding runs on device 0.
    dist.init_process_group("nccl")  # want CV403 "all_reduce at .* on device 0"
    dist.barrier()
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
    torch.cuda.set_device(local_rank)
