# The master leaves at once; the workers that stay enter the command loop
# below, which receives what the master broadcasts from elsewhere
# (mpi4pyscf's pool).
from mpi4py import MPI


class Pool:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.rank = self.comm.Get_rank()

    def is_master(self):
        return self.rank == 0

    def wait(self):
        if self.is_master():
            return
        while True:
            task = self.comm.bcast(None)
            if task is None:
                break
            task()
