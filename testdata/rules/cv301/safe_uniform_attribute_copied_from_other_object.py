# A value another object keeps that every rank computes alike (the job's
# size per host), copied into the instance and tested there.
from mpi4py import MPI


class Topology:
    def __init__(self, comm, n_hosts=2):
        self.per_host = comm.Get_size() // n_hosts


class Solver:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.topology = Topology(self.comm)
        self.per_host = self.topology.per_host
        self.multi = self.per_host > 1
        self.build()

    def build(self):
        if self.multi:
            self.comm.bcast(None, root=0)
        self.comm.barrier()


Solver()
