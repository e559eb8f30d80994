# Horovod initialised on a communicator split by local rank (NVIDIA's BERT
# run_pretraining.py shape): every member of this rank's Horovod
# communicator has the same local_rank, so the branches below are taken
# by all of its members or by none.
from mpi4py import MPI
import torch
import horovod.torch as hvd

k = 4
local_rank = MPI.COMM_WORLD.rank % k
hvd.init(comm=MPI.COMM_WORLD.Split(local_rank, MPI.COMM_WORLD.rank))
model = torch.nn.Linear(2, 2)
if local_rank == 0:
    hvd.broadcast_parameters(model.state_dict(), root_rank=0)

tensors = [torch.ones(1) for _ in range(8)]
for index, t in enumerate(tensors):
    if index % k == local_rank:
        hvd.allreduce(t, name="t%d" % index)
