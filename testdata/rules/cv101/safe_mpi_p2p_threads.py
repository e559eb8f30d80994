# MPI matches point-to-point messages by source, tag and communicator, not
# by the order threads issue them: at thread level multiple (mpi4py's
# default) a sender thread, a receiver thread and the main thread's
# collectives may share a communicator.
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD


def sender():
    while True:
        comm.send(1, dest=1, tag=7)


def receiver():
    while True:
        comm.recv(source=1, tag=7)


def main():
    threading.Thread(target=sender).start()
    threading.Thread(target=receiver).start()
    comm.Barrier()
