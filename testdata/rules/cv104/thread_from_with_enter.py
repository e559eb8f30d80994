# MPIQueue's transport: the I/O thread that calls MPI is started by the
# __enter__ of a context manager used in a with statement, at thread
# level funneled.
from mpi4py import rc

rc.thread_level = "funneled"
import threading

from mpi4py import MPI


class Transport:
    def __init__(self):
        self.comm = MPI.COMM_WORLD

    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self._thread.join()

    def _run(self):
        self.comm.recv(source=MPI.ANY_SOURCE)  # want CV104 "recv"


with Transport() as t:
    pass
