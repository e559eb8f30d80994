# A handle made under an integer condition is waited on every path where
# that condition held: the test that skips the wait excludes it.
import torch
import torch.distributed as dist


def pass_from_previous_rank(x, group, cp_size):
    # Pyramid-Flow's context-parallel pass: the irecv exists only where
    # cp_rank > 0, and the arm that does not wait is cp_rank == 0.
    rank = dist.get_rank()
    cp_rank = rank % cp_size
    recv_buffer = torch.empty_like(x[-1:])
    if cp_rank < cp_size - 1:
        req_send = dist.isend(x[-1:].contiguous(), rank + 1, group=group)
        req_send.wait()
    if cp_rank > 0:
        req_recv = dist.irecv(recv_buffer, rank - 1, group=group)
    if cp_rank == 0:
        x = torch.cat([torch.zeros_like(x[:1]), x], dim=0)
    else:
        req_recv.wait()
        x = torch.cat([recv_buffer, x], dim=0)
    return x


def odd_even(x, rank):
    if rank % 2 == 1:
        req = dist.isend(x, rank - 1)
    if rank % 2 == 0:
        return x
    req.wait()
    return x


def reversed_constant(x, stage):
    if 0 < stage:
        req = dist.irecv(x, stage - 1)
    if not stage >= 1:
        return x
    req.wait()
    return x


def from_else_arm(x, rank):
    if rank == 0:
        y = x.clone()
    else:
        req = dist.irecv(x, 0)
    if rank != 0:
        req.wait()
    return x
