# The NBX exchange's barrier, issued when a rank's own sends are done,
# pairs across ranks only if every rank issues it before leaving the
# loop: a loop that can also be left by a return, or by a break that
# does not wait for the barrier, lets some ranks leave without it.
import time

import numpy as np
from mpi4py import MPI


def exchange_with_deadline(comm, sends, deadline, tag=7):
    recvd = {}
    barrier = None
    status = MPI.Status()
    while True:
        if time.time() > deadline:
            return recvd
        if comm.Iprobe(source=MPI.ANY_SOURCE, tag=tag, status=status):
            buf = np.empty(status.Get_count(MPI.DOUBLE))
            comm.Recv([buf, MPI.DOUBLE], source=status.Get_source(), tag=tag)
            recvd[status.Get_source()] = buf
        elif barrier is None:
            if MPI.Request.Testall(sends):
                barrier = comm.Ibarrier()  # want CV301 "Ibarrier"
        elif barrier.Test():
            break
    return recvd


def exchange_until_quiet(comm, sends, tag=7):
    recvd = {}
    barrier = None
    status = MPI.Status()
    while True:
        if comm.Iprobe(source=MPI.ANY_SOURCE, tag=tag, status=status):
            buf = np.empty(status.Get_count(MPI.DOUBLE))
            comm.Recv([buf, MPI.DOUBLE], source=status.Get_source(), tag=tag)
            recvd[status.Get_source()] = buf
        elif barrier is None and MPI.Request.Testall(sends):
            barrier = comm.Ibarrier()  # want CV301 "Ibarrier"
        else:
            break
    return recvd
