import threading

import mpi4py

mpi4py.rc.thread_level = "serialized"
from mpi4py import MPI  # noqa: E402

comm = MPI.COMM_WORLD


def reduce_stats(send, recv):
    comm.Allreduce(send, recv)


def main(send, recv):
    t = threading.Thread(target=reduce_stats, args=(send, recv))
    t.start()
    t.join()
    comm.Barrier()
