# The same test as safe_split_color/hvd_local_comm.py, but Horovod spans
# every rank: ranks with another local rank never issue "t<index>", so
# its owner waits forever.
from mpi4py import MPI
import torch
import horovod.torch as hvd

k = 4
local_rank = MPI.COMM_WORLD.rank % k
hvd.init()

tensors = [torch.ones(1) for _ in range(8)]
for index, t in enumerate(tensors):
    if index % k == local_rank:
        hvd.allreduce(t, name="t%d" % index)  # want CV301 "allreduce on the default group"
