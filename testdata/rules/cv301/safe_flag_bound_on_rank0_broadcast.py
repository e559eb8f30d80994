# A flag bound on rank 0 only, then broadcast in place: every rank holds
# rank 0's value before the branch, so all of them take the same arm.
import torch
import torch.distributed as dist


def broadcast_params(model):
    for p in model.parameters():
        dist.broadcast(p.data, 0)


def reset_value(model):
    flag = torch.tensor([0])
    if dist.get_rank() == 0:
        flag = torch.tensor([1])
    dist.broadcast(flag, 0)
    if flag:
        broadcast_params(model)


def reduce_then_branch(model):
    stop = torch.zeros(1)
    if dist.get_rank() == 0:
        stop = torch.ones(1)
    dist.all_reduce(stop)
    if stop.item() > 0:
        broadcast_params(model)


def broadcast(value, src):
    # A project's wrapper: the argument is broadcast in place.
    dist.broadcast(value, src)


def reset_through_wrapper(model):
    flag = torch.tensor([0])
    if dist.get_rank() == 0:
        flag = torch.tensor([1])
    broadcast(flag, 0)
    if flag:
        broadcast_params(model)


def relog_scattered(t):
    # Rank 0's decision is scattered before anyone branches on it.
    step = -1
    if dist.get_rank() == 0:
        step = 5
    out = [None]
    objs = [step] * dist.get_world_size() if dist.get_rank() == 0 else None
    dist.scatter_object_list(out, objs)
    step = out[0]
    if step >= 0:
        dist.all_reduce(t)


def count_agreed(t):
    # Rank 0's count is broadcast before anyone loops on it.
    n = torch.tensor([10])
    if dist.get_rank() == 0:
        n = torch.tensor([5])
    dist.broadcast(n, 0)
    for _ in range(int(n.item())):
        dist.all_reduce(t)


def bound_agreed(t):
    # The bound is reduced to one value before the loop.
    tf = torch.tensor([dist.get_rank() + 3.0])
    dist.all_reduce(tf, op=dist.ReduceOp.MAX)
    step = 0.0
    while step < tf.item():
        dist.barrier()
        step += 1.0
