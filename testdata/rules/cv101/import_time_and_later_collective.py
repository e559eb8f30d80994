# The same helper, but the main thread also waits at the barrier after
# the import, while the pool thread may be in it.
from concurrent.futures import ThreadPoolExecutor

from mpi4py import MPI

comm = MPI.COMM_WORLD
local_comm = comm.Split_type(split_type=MPI.COMM_TYPE_SHARED)


def mpi_barrier():
    comm.Barrier()  # want CV101 "Barrier"


def task_wrapper(task):
    mpi_barrier()
    return task()


def run(task):
    pool = ThreadPoolExecutor(max_workers=1)
    fut = pool.submit(task_wrapper, task)
    mpi_barrier()
    return fut.result()
