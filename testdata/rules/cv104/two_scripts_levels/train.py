# This one asks for "funneled" and calls MPI from a thread: erroneous,
# whatever the other script asks for.
import threading

import mpi4py

mpi4py.rc.thread_level = "funneled"
from mpi4py import MPI  # noqa: E402


def report(loss):
    MPI.COMM_WORLD.allreduce(loss)  # want CV104 "thread level \"funneled\""


def main():
    threading.Thread(target=report, args=(1.0,)).start()


if __name__ == "__main__":
    main()
