import threading

import mpi4py

mpi4py.rc.thread_level = "funneled"
from mpi4py import MPI  # noqa: E402


def worker(count):
    return MPI.COMM_WORLD.allreduce(count)  # want CV104 "thread level \"funneled\""


def main(count):
    threading.Thread(target=worker, args=(count,)).start()
