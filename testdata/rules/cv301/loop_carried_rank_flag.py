# A flag or index that only rank 0 sets at the end of a pass and every
# rank tests at the top of the next one: rank 0 leaves the loop while the
# others issue the next pass's collectives (a zero-order optimizer's
# learning-rate search). Broadcast after it is set, every rank leaves
# together.
import torch
import torch.distributed as dist


def run_until_rank0_says(steps):
    rank = dist.get_rank()
    stop = False
    for step in range(steps):
        if stop:
            break
        t = torch.ones(4, device="cuda")
        dist.all_reduce(t)  # want CV301 "leave early"
        if rank == 0:
            stop = True


def search(lrs):
    rank = dist.get_rank()
    first = None
    for idx, lr in enumerate(lrs):
        if first is not None and idx >= first + 2:
            break
        t = torch.full((4,), lr, device="cuda")
        dist.all_reduce(t)  # want CV301 "leave early"
        if rank == 0 and first is None:
            first = idx


def run_agreed(steps):
    rank = dist.get_rank()
    stop = False
    for step in range(steps):
        if stop:
            break
        t = torch.ones(4, device="cuda")
        dist.all_reduce(t)
        if rank == 0:
            stop = True
        flag = [stop]
        dist.broadcast_object_list(flag, src=0)
        stop = flag[0]
