# The setup broadcasts run before the factory starts the thread; the
# barrier after it meets the allreducer thread's collectives.
import numpy as np
import torch
from mpi4py import MPI

import optimizer as dopt

comm = MPI.COMM_WORLD


def train(steps):
    epoch = comm.bcast(0, root=0)
    comm.Barrier()
    base = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    opt = dopt.DistributedOptimizer(base)
    for _ in range(steps):
        opt.push(np.zeros(4, dtype="float32"))
    comm.Barrier()
    return epoch


if __name__ == "__main__":
    train(10)
