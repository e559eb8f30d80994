# Polling an mpi4py request until test() reports completion: `while
# True:` ends only through the exits after a completed test.
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD


def send(msg, dest):
    req = comm.isend(msg, dest=dest)
    while True:
        time.sleep(1)
        if req.Test():
            return


def recv(source):
    req = comm.irecv(bytearray(1 << 20), source=source)
    while True:
        time.sleep(1)
        done, msg = req.test()
        if done:
            break
    return msg
