# Communication wrappers return the collective's result directly, and
# forward async_op (DeepSpeed's deepspeed.comm, Megatron's and verl's
# helpers): the caller that asks for async work owns the handle.
import torch.distributed as dist


def reduce(t, group=None, async_op=False):
    return dist.all_reduce(t, group=group, async_op=async_op)


def send_with_meta(t, dst, meta):
    return meta, dist.isend(t, dst)


def step(t):
    h = reduce(t, async_op=True)  # want CV401 "\"h\", the work handle of the all_reduce that reduce returns, is never waited"
    return t * 2


def fire(t):
    reduce(t, None, True)  # want CV401 "the work handle of the all_reduce that reduce returns is discarded"


def send(t, meta):
    m, _ = send_with_meta(t, 1, meta)  # want CV401 "the work handle of the isend that send_with_meta returns is discarded"
    return m
