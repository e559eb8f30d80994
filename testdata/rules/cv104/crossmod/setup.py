import mpi4py

mpi4py.rc.thread_level = "funneled"
