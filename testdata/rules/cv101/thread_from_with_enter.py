# A thread started by a context manager's __enter__ all-reduces on the
# communicator the with body uses at the same time.
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD


class Background:
    def __enter__(self):
        self.t = threading.Thread(target=self._run)
        self.t.start()
        return self

    def __exit__(self, *exc):
        self.t.join()

    def _run(self):
        comm.allreduce(1)  # want CV101 "allreduce"


with Background():
    comm.Barrier()
