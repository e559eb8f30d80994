# The receiver thread also joins a collective on the communicator the
# main thread's Barrier uses: collectives are matched by issue order.
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD


def receiver():
    while True:
        msg = comm.recv(source=1, tag=7)
        comm.allreduce(msg)  # want CV101 "allreduce on the default group"


def main():
    threading.Thread(target=receiver).start()
    comm.Barrier()
