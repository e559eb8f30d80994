import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD.Dup()


def worker(count):
    return comm.allreduce(count)


threading.Thread(target=worker, args=(1,)).start()
