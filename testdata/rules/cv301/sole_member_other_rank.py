# A group of two ranks used under `rank == 0`: rank 1 is a member and
# never joins (the one-member shape is in safe_sole_member_group.py).
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    pair = dist.new_group([0, 1])
    t = torch.ones(1, device="cuda")
    if rank == 0:
        dist.all_reduce(t, group=pair)  # want CV301 "all_reduce on group new_group@"


main()
