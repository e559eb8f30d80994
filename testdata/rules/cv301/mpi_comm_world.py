# MPI.COMM_WORLD.Get_rank() is a rank test like comm.rank.
from mpi4py import MPI

comm = MPI.COMM_WORLD


def sync_on_root():
    if comm.Get_rank() == 0:
        comm.Barrier()  # want CV301 "Barrier"
