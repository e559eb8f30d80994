# A compiled-code cache: a rank whose host already has the library loads
# it and returns; the others build it on rank 0 and wait in a barrier
# (PyOP2's Compiler.get_so). Hosts that see the cache differently, or a
# rank that looks after rank 0 renamed the file in place, split the ranks.
import ctypes
import os
import subprocess

from mpi4py import MPI


def get_so(comm, src, soname):
    try:
        # Are we in the cache?  (each rank asks its own host's file system)
        return ctypes.CDLL(soname)
    except OSError:
        # No: rank 0 builds, the others wait for it
        if comm.rank == 0:
            os.makedirs(os.path.dirname(soname), exist_ok=True)
            with open(soname + ".c", "w") as f:
                f.write(src)
            subprocess.check_call(["cc", "-shared", "-fPIC", "-o", soname + ".tmp", soname + ".c"])
            os.rename(soname + ".tmp", soname)
        comm.Barrier()  # want CV301 "`except OSError`"
        return ctypes.CDLL(soname)


if __name__ == "__main__":
    get_so(MPI.COMM_WORLD, "int f(void) { return 1; }", "cache/ab/cdef.so")
