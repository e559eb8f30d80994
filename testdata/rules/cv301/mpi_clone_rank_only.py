# Comm.Clone makes a communicator as Dup does: a barrier on the clone that
# only rank 0 reaches hangs the others.
from mpi4py import MPI

comm = MPI.COMM_WORLD.Clone()


def rank_only():
    if comm.rank == 0:
        comm.Barrier()  # want CV301 "Comm.Barrier on group Clone@"


def local_clone():
    c = MPI.COMM_WORLD.Clone()
    if c.rank == 0:
        c.bcast("x", root=0)  # want CV301 "bcast on group Clone@"
