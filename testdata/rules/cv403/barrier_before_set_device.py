# A barrier between the group's creation and set_device runs on device 0
# on every rank.
import torch
import torch.distributed as dist


def main(local_rank):
    dist.init_process_group("nccl")  # want CV403 "barrier at .* runs before it"
    dist.barrier()
    torch.cuda.set_device(local_rank)
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
