# A list display of async handles, and a helper that returns a
# comprehension of them: never waited, one finding per list.
from mpi4py import MPI

comm = MPI.COMM_WORLD


def reduce_two(x, y):
    reqs = [comm.Iallreduce(MPI.IN_PLACE, x), comm.Iallreduce(MPI.IN_PLACE, y)]  # want CV401 "\"reqs\", the work handle of this Comm.Iallreduce, is never waited"
    return x.sum() + y.sum()


def ireduce_all(fs, gs):
    return [comm.Ireduce(f, g, op=MPI.SUM, root=0) for f, g in zip(fs, gs)]


def run(fs, gs):
    more = ireduce_all(fs, gs)  # want CV401 "\"more\", the work handle of the Comm.Ireduce that ireduce_all returns, is never waited"
    return gs[0].sum()
