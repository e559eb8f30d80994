# The handler for a missing library communicates nothing (it raises a
# clearer error), and a handler for a missing file around work that
# reads no file is no file check.
import ctypes

from mpi4py import MPI


def get_so(comm, soname):
    try:
        return ctypes.CDLL(soname)
    except OSError as e:
        raise RuntimeError(f"build {soname} first") from e


def parse(comm, text):
    try:
        return int(text)
    except OSError:
        comm.Barrier()
        return 0


if __name__ == "__main__":
    get_so(MPI.COMM_WORLD, "build/x.so")
