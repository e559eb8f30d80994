import threading

import mpi4py

mpi4py.rc.thread_level = "funneled"
from mpi4py import MPI  # noqa: E402


def ship(buf, dest):
    req = MPI.COMM_WORLD.Isend(buf, dest=dest)  # want CV104 "Isend"
    req.Wait()


def main(buf):
    threading.Thread(target=ship, args=(buf, 1)).start()
