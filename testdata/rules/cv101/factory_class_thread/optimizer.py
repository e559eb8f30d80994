# Horovod's DistributedOptimizer factory: a class made at run time from
# _DistributedOptimizer's namespace, whose __init__ starts the allreducer
# thread.
import queue
import threading

from mpi4py import MPI


class _DistributedOptimizer:
    def __init__(self, params):
        self.params = params
        self.q = queue.Queue()
        self.comm = MPI.COMM_WORLD
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        while True:
            buf = self.q.get()
            if buf is None:
                break
            self.comm.Allreduce(MPI.IN_PLACE, buf)  # want CV101 "Comm.Allreduce"

    def push(self, buf):
        self.q.put(buf)


def DistributedOptimizer(optimizer):
    cls = type(optimizer.__class__.__name__, (optimizer.__class__,), dict(_DistributedOptimizer.__dict__))
    return cls(optimizer.param_groups)
