import threading

import mpi4py

mpi4py.rc.initialize = False
from mpi4py import MPI  # noqa: E402

MPI.Init_thread(MPI.THREAD_MULTIPLE)
comm = MPI.COMM_WORLD.Dup()


def sync():
    comm.Barrier()


threading.Thread(target=sync).start()
