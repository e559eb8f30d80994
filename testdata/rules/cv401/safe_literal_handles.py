# The lists of literal_handles_not_waited.py, waited.
import torch.distributed as dist
from mpi4py import MPI

comm = MPI.COMM_WORLD


def reduce_two(x, y):
    reqs = [comm.Iallreduce(MPI.IN_PLACE, x), comm.Iallreduce(MPI.IN_PLACE, y)]
    MPI.Request.Waitall(reqs)
    return x.sum() + y.sum()


def ireduce_all(fs, gs):
    return [comm.Ireduce(f, g, op=MPI.SUM, root=0) for f, g in zip(fs, gs)]


def run(fs, gs):
    more = ireduce_all(fs, gs)
    MPI.Request.Waitall(more)
    return gs[0].sum()


def pair(a, b):
    works = (dist.all_reduce(a, async_op=True), dist.all_reduce(b, async_op=True))
    for w in works:
        w.wait()
    return a + b


def handed_on(a, b):
    works = [dist.all_reduce(a, async_op=True), dist.all_reduce(b, async_op=True)]
    return works
