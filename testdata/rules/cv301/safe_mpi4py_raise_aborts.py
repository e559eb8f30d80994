# A script that aborts the whole job on an uncaught exception (its
# excepthook calls Abort, as `python -m mpi4py` does): the root's raise
# ends every rank.
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def abort_on_error(kind, value, tb):
    sys.__excepthook__(kind, value, tb)
    comm.Abort(1)


sys.excepthook = abort_on_error


def check(params, bad):
    if rank == 0 and bad:
        raise ValueError("bad")
    return comm.bcast(params, root=0)
