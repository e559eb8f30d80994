import threading

from mpi4py import MPI


def gather_names(name):
    return MPI.COMM_WORLD.allgather(name)  # want CV104 "thread"


def start(name):
    threading.Thread(target=gather_names, args=(name,)).start()
