# MPI-IO's collective operations (Open, Set_view, the _all writes, Close)
# are collective over the file's communicator: rank 0 alone writing with
# Write_at_all leaves the other ranks' matching call missing.
import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def save(path, data):
    fh = MPI.File.Open(comm, path, MPI.MODE_WRONLY | MPI.MODE_CREATE)
    if rank == 0:
        fh.Write_at_all(0, data)  # want CV301 "Write_at_all"
    fh.Close()


def save_all(path, data):
    fh = MPI.File.Open(comm, path, MPI.MODE_WRONLY | MPI.MODE_CREATE)
    fh.Write_at_all(rank * data.nbytes, data)
    fh.Close()


def save_independent(path, data):
    fh = MPI.File.Open(comm, path, MPI.MODE_WRONLY | MPI.MODE_CREATE)
    if rank == 0:
        fh.Write_at(0, data)  # an independent write: rank 0 alone may
    fh.Close()


save("out.bin", np.zeros(4))
