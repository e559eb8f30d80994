from concurrent.futures import ThreadPoolExecutor

import mpi4py

mpi4py.rc.thread_level = "single"
from mpi4py import MPI  # noqa: E402

comm = MPI.COMM_WORLD


def share(buf):
    comm.Bcast(buf, root=0)  # want CV104 "pool worker"


def main(buf):
    with ThreadPoolExecutor(1) as ex:
        ex.submit(share, buf)
