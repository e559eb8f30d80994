# MPI.Request.Wait(other) waits another request, not this one (the
# class form in safe_mpi_request_class_wait.py).
import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD


def fetch(n, src):
    data = np.empty(n, "float64")
    flag = np.empty(1, "int32")
    req = comm.Irecv([data, MPI.DOUBLE], source=src)  # want CV401 "\"req\", the work handle of this Comm.Irecv, is never waited"
    done = comm.Irecv([flag, MPI.INT], source=src)
    MPI.Request.Wait(done)
    return data
