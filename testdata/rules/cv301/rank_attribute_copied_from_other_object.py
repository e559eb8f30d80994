# A rank value another object keeps (`Topology.lrank = rank // n_hosts`),
# copied into the instance and tested there (pyDNMFk's solver: ranks past
# the host's GPU count skip the NCCL setup's broadcast and pair their
# barrier with it).
import cupy as cp
from mpi4py import MPI


class Topology:
    def __init__(self, comm, n_hosts=2):
        rank = comm.Get_rank()
        self.lrank = rank // n_hosts
        self.n_gpu_local = cp.cuda.runtime.getDeviceCount()


class Solver:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.topology = Topology(self.comm)
        self.lrank = self.topology.lrank
        self.in_gpu_context = self.lrank < self.topology.n_gpu_local
        self.build()

    def build(self):
        if self.in_gpu_context:
            self.comm.bcast(None, root=0)  # want CV301 "self.in_gpu_context"
        self.comm.barrier()


Solver()
