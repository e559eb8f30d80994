# A compile cache: the rank that finds no cached file writes it, rank 0
# does, and they all wait in mpi4py's lowercase barrier; a rank whose
# host already sees the file skips the barrier (PyOP2's code cache). The
# communicator comes in as a parameter; the program imports mpi4py.
import os

from mpi4py import MPI  # noqa: F401


def get_code_to_compile(comm, cname, code):
    if os.path.isfile(cname):
        with open(cname) as f:
            return f.read()
    if comm.rank == 0:
        with open(cname, "w") as f:
            f.write(code)
    comm.barrier()  # want CV301 "Comm.barrier"
    return code
