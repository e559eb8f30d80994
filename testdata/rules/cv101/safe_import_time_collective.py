# TensorRT-LLM's _utils: the node-local communicator is split when the
# module is imported; the barrier helper that a pool thread runs later
# cannot start before that import has finished.
from concurrent.futures import ThreadPoolExecutor

from mpi4py import MPI

comm = MPI.COMM_WORLD
local_comm = comm.Split_type(split_type=MPI.COMM_TYPE_SHARED)


def mpi_barrier():
    comm.Barrier()


def task_wrapper(task):
    mpi_barrier()
    return task()


def submit(pool: ThreadPoolExecutor, task):
    return pool.submit(task_wrapper, task)
