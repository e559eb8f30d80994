# The rank kept in an attribute first, then tested through it: only the
# last rank posts the broadcast it roots, and only when its own test holds.
import numpy as np
from mpi4py import MPI


class Controller:
    def __init__(self, comm):
        self.comm = comm
        self.iter = 0

    def run(self):
        rank = self.comm.Get_rank()
        size = self.comm.Get_size()
        self.slot = rank
        self.last = self.slot == size - 1
        for _ in range(10):
            self.step(self.comm)

    def step(self, comm):
        self.iter += 1
        if self.last and self.iter > 3:
            comm.Bcast((np.array([1]), MPI.INT), root=comm.Get_size() - 1)  # want CV301 "self.last"


if __name__ == "__main__":
    Controller(MPI.COMM_WORLD).run()
