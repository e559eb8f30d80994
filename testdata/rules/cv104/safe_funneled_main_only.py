import threading

import mpi4py

mpi4py.rc.thread_level = "funneled"
from mpi4py import MPI  # noqa: E402


def compute(xs):
    return sum(xs)


threading.Thread(target=compute, args=([1, 2],)).start()
total = MPI.COMM_WORLD.allreduce(3)
