# Arithmetic on the world size, or on configuration, kept in an
# attribute is the same on every rank.
from mpi4py import MPI


class Topology:
    def __init__(self, comm, n_hosts=2):
        self.per_host = comm.Get_size() // n_hosts
        self.width = n_hosts * 4


class Solver:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.topology = Topology(self.comm)

    def build(self):
        if self.topology.per_host > 1 and self.topology.width > 2:
            self.comm.barrier()


Solver().build()
