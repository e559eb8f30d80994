# Deterministic orders stay silent: sorted sets, lists, sets of integers,
# and set loops whose collectives do not depend on the element.
import torch.distributed as dist


def sync_buffers(buffers, names):
    for name in sorted(set(names)):
        dist.broadcast(buffers[name], 0)


def sync_params(model):
    for p in list(model.parameters()):
        dist.all_reduce(p.grad)


def by_index(tensors):
    for i in set(range(len(tensors))):
        dist.all_reduce(tensors[i])
    for i in {0, 1, 2}:
        dist.all_reduce(tensors[i])


def count_only(names, flag):
    for name in set(names):
        print(name)
        dist.all_reduce(flag)


def horovod_missing(handles, requires_update, hvd):
    # Horovod's coordinator matches operations by tensor name, so the
    # order in which a rank submits them does not matter.
    from horovod.torch.mpi_ops import allreduce_async_

    done = set(handles)
    for p in requires_update - done:
        handles[p] = allreduce_async_(p.grad, name=str(p))
