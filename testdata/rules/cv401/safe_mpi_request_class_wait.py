# mpi4py's request methods called on the class with the request as the
# first argument (MPI.Request.Wait(req)) wait it, as req.Wait() does.
import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD


def fetch(n, src):
    data = np.empty(n, "float64")
    req = comm.Irecv([data, MPI.DOUBLE], source=src)
    comm.send({"op": "read"}, dest=src, tag=7)
    MPI.Request.Wait(req)
    return data


def fetch_all(n, srcs):
    bufs = [np.empty(n, "float64") for _ in srcs]
    reqs = [comm.Irecv(b, source=s) for b, s in zip(bufs, srcs)]
    MPI.Request.Waitall(reqs)
    return bufs
