# A number a class computes from the rank (the rank within a host,
# `rank // n_hosts`) and keeps in an attribute differs between ranks
# wherever it is read: here through the object another class keeps.
from mpi4py import MPI


class Topology:
    def __init__(self, comm, n_hosts=2):
        rank = comm.Get_rank()
        self.lrank = rank // n_hosts


class Solver:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.topology = Topology(self.comm)

    def build(self):
        if self.topology.lrank < 2:
            self.comm.barrier()  # want CV301 "self.topology.lrank < 2"


Solver().build()
