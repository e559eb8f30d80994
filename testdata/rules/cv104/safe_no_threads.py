import mpi4py

mpi4py.rc.thread_level = "single"
from mpi4py import MPI  # noqa: E402

MPI.COMM_WORLD.Barrier()
