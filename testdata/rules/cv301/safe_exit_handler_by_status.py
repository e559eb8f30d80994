# An exit handler that finalizes only when the process ends normally and
# aborts the job otherwise issues no barrier on a failed rank (PyFR's
# mpiutil.onexit).
import atexit
import sys

from mpi4py import MPI


def register_finalize():
    exc = None

    def excepthook(exctype, value, tb):
        nonlocal exc
        exc = value
        sys.__excepthook__(exctype, value, tb)

    sys.excepthook = excepthook

    def onexit():
        if MPI.COMM_WORLD.size == 1 or exc is None:
            MPI.Finalize()
        else:
            MPI.COMM_WORLD.Abort(1)

    atexit.register(onexit)
