# A helper forwards its async flag to the collective (async_op=async_op)
# and then drops or forgets the handle (verl's all_to_all_tensor shape):
# harmless while every caller is synchronous, a race once one passes True.
import torch
import torch.distributed as dist


def all_to_all_tensor(local_tensor, scatter_dim, gather_dim, group=None, async_op=False):
    n = dist.get_world_size(group=group)
    inputs = list(torch.tensor_split(local_tensor, n, dim=scatter_dim))
    outputs = [torch.empty_like(inputs[0]) for _ in range(n)]
    dist.all_to_all(outputs, inputs, group=group, async_op=async_op)  # want CV401 "the work handle all_to_all returns is discarded"
    return torch.cat(outputs, dim=gather_dim)


class Reducer:
    def reduce(self, t, async_op=False):
        work = dist.all_reduce(t, async_op=async_op)  # want CV401 "\"work\", the work handle of this all_reduce, is never waited"
        return t / dist.get_world_size()


def overlapped(x, group):
    return all_to_all_tensor(x, 1, 2, group, True)


def step(t):
    r = Reducer()
    return r.reduce(t, async_op=True)


def seq_all_to_all(local_tensor, group=None, async_op=False):
    outputs = [torch.empty_like(local_tensor)]
    dist.all_to_all(outputs, [local_tensor], group=group, async_op=async_op)  # want CV401 "the work handle all_to_all returns is discarded"
    return torch.cat(outputs)


class SeqAllToAll(torch.autograd.Function):
    # The flag goes through forward (apply passes no ctx) to the helper.
    @staticmethod
    def forward(ctx, group, local_tensor, async_op=False):
        return seq_all_to_all(local_tensor, group, async_op)

    @staticmethod
    def backward(ctx, grad):
        return None, grad, None


def gather_overlapped(x, group):
    return SeqAllToAll.apply(group, x, True)


def send_to_next(tensor, dst, group=None, async_op=False):
    # The handle exists only under `if async_op:` (Megalodon's chunk-parallel
    # mappings); a caller that asks for it and drops it races.
    if async_op:
        handle = dist.isend(tensor, dst, group=group)
    else:
        dist.send(tensor, dst, group=group)
        handle = None
    return tensor, handle


def send_async(x):
    out, handle = send_to_next(x, 1, async_op=True)  # want CV401 "\"handle\", the work handle of the isend that send_to_next returns, is never waited"
    return out
