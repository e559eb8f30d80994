# Horovod's async ops imported from where they are defined
# (horovod.torch.mpi_ops, as horovod's own optimizer does) are the same
# ops as hvd.allreduce_async_: a handle that is synchronized is fine, a
# dropped one is never waited.
from horovod.torch.mpi_ops import allreduce_async_, synchronize


def step(grads):
    handles = []
    for g in grads:
        handles.append(allreduce_async_(g))
    for h in handles:
        synchronize(h)


def lost(t):
    allreduce_async_(t)  # want CV401 "allreduce_async_ returns is discarded"
