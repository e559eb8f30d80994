# Two scripts of one repository ask for different thread levels. This
# one asks for "multiple" and calls MPI from a thread: allowed.
import threading

import mpi4py

mpi4py.rc.thread_level = "multiple"
from mpi4py import MPI  # noqa: E402


def worker(count):
    return MPI.COMM_WORLD.allreduce(count)


def main():
    threading.Thread(target=worker, args=(1,)).start()


if __name__ == "__main__":
    main()
