import threading

import mpi4py

mpi4py.rc.initialize = False
from mpi4py import MPI  # noqa: E402

MPI.Init_thread(MPI.THREAD_FUNNELED)


def sync():
    MPI.COMM_WORLD.Barrier()  # want CV104 "funneled"


threading.Thread(target=sync).start()
