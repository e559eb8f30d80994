# A program importing both mpi4py and torch: a parameter annotated with
# the ProcessGroupNCCL class is a torch group, whose allreduce returns a
# work handle; the unannotated one is left to mpi4py's blocking
# Comm.allreduce.
from mpi4py import MPI
import torch.distributed as dist
from torch.distributed import ProcessGroupNCCL


def annotated(pg: ProcessGroupNCCL, x):
    pg.allreduce([x])  # want CV401 "allreduce returns is discarded"
    return x


def quoted(pg: "dist.ProcessGroupGloo", x):
    pg.allreduce([x])  # want CV401 "allreduce returns is discarded"
    return x


def plain(comm, x):
    comm.allreduce(x, op=MPI.SUM)
    return x
