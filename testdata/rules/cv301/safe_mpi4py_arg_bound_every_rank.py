# Each of these binds what it hands to the collective on every rank, or
# reads it only where it is bound.
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def both_arms():
    if rank == 0:
        data = {"a": 1}
    else:
        data = None
    return comm.bcast(data, root=0)


def none_first():
    state = None
    if rank == 0:
        state = {"step": 3}
    return comm.bcast(state, root=0)


def read_where_bound(n):
    for i in range(n):
        if rank == 0:
            x = i * 2
        x = comm.bcast(x if rank == 0 else None, root=0)


def same_arm():
    if rank == 0:
        y = 3
        comm.send(y, dest=1)


def rebound():
    if rank == 0:
        z = 1
    z = 2
    comm.bcast(z)

