# A group whose one member is rank 0, used under `rank == 0`: every
# member of the group issues the collective.
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    solo = dist.new_group([0])
    t = torch.ones(1, device="cuda")
    if rank == 0:
        dist.all_reduce(t, group=solo)
    if 0 == dist.get_rank():
        dist.broadcast(t, src=0, group=solo)


main()
