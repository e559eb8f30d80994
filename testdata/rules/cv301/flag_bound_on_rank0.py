# A flag bound on rank 0 only and branched on without being broadcast:
# only rank 0 enters the broadcasts.
import torch
import torch.distributed as dist


def broadcast_params(model):
    for p in model.parameters():
        dist.broadcast(p.data, 0)


def reset_value(model):
    flag = torch.tensor([0])
    if dist.get_rank() == 0:
        flag = torch.tensor([1])
    if flag:
        broadcast_params(model)  # want CV301 "broadcast"


def broadcast_elsewhere(model, other):
    # Broadcasting another tensor leaves the flag rank 0's own.
    flag = torch.tensor([0])
    if dist.get_rank() == 0:
        flag = torch.tensor([1])
    dist.broadcast(other, 0)
    if flag:
        broadcast_params(model)  # want CV301 "broadcast"


def send_stats(stats, src):
    dist.broadcast(stats, src)


def reset_wrapper_other_argument(model, stats):
    # The wrapper broadcasts the statistics, not the flag.
    flag = torch.tensor([0])
    if dist.get_rank() == 0:
        flag = torch.tensor([1])
    send_stats(stats, 0)
    if flag:
        broadcast_params(model)  # want CV301 "broadcast"


def relog(t):
    # A number bound on rank 0 only, compared with a constant.
    step = -1
    if dist.get_rank() == 0:
        step = 5
    if step >= 0:
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group"


def count_bound_on_rank0(t):
    # A trip count bound on rank 0 only: rank 0 runs five passes, the
    # others ten.
    n = 10
    if dist.get_rank() == 0:
        n = 5
    for _ in range(n):
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group"


def bound_of_own(t):
    # The loop's bound is the rank's own: each rank leaves after its own
    # number of passes.
    tf = dist.get_rank() + 3.0
    step = 0.0
    while step < tf:
        dist.barrier()  # want CV301 "barrier on the default group"
        step += 1.0
