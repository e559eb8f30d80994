# The async isend and the broadcast on another group are in the two arms of
# one if/else: a call runs one or the other, never both (DeepSpeed's
# pipe/p2p.py send/recv shape).
import torch.distributed as dist

_async = []


def send(tensor, dest, src, async_op=False):
    group = dist.new_group()
    if async_op:
        op = dist.isend(tensor, dest)
        _async.append(op)
    else:
        return dist.broadcast(tensor, src, group=group, async_op=async_op)


def recv(tensor, src, async_op=False):
    group = dist.new_group()
    if async_op:
        op = dist.irecv(tensor, src)
        _async.append(op)
    elif src > 0:
        dist.broadcast(tensor, src, group=group)
    else:
        dist.all_reduce(tensor, group=group)
