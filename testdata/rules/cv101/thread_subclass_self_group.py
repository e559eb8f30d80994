# A Thread subclass keeps the communicator it is handed in self (FedML's
# MPIReceiveThread): run() reaches it through self, which Thread.start()
# binds outside the program.
import threading

import torch.distributed as dist
from mpi4py import MPI


class Reporter(threading.Thread):
    def __init__(self, comm):
        super().__init__()
        self.comm = comm

    def run(self):
        self.comm.allreduce(1)  # want CV101 "allreduce on the default group"


class Syncer(threading.Thread):
    def __init__(self, group):
        super().__init__()
        self.group = group

    def run(self):
        dist.barrier(group=self.group)  # want CV101 "barrier on group new_group"


def main(t):
    comm = MPI.COMM_WORLD
    Reporter(comm).start()
    comm.Barrier()
    g = dist.new_group([0, 1])
    Syncer(g).start()
    dist.all_reduce(t, group=g)
