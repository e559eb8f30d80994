# A helper whose stream parameter defaults to the null stream, called
# with a non-blocking stream: the operations run there, unordered with
# the current stream's writes of the same tensors.
import cupy as cp
import torch
from cupy.cuda import nccl
from mpi4py import MPI

comm = MPI.COMM_WORLD
uid = comm.bcast(nccl.get_unique_id() if comm.rank == 0 else None, root=0)
cp.cuda.runtime.setDevice(comm.rank % torch.cuda.device_count())
ncomm = nccl.NcclCommunicator(comm.size, uid, comm.rank)


def average_gradients(model, stream=None):
    if stream is None:
        stream = cp.cuda.Stream.null.ptr
    else:
        stream = stream.ptr
    for param in model.parameters():
        recv = torch.zeros_like(param.grad)
        ncomm.allReduce(param.grad.data_ptr(), recv.data_ptr(), param.numel(), nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream)
        param.grad = recv / comm.size  # want CV203 "\"recv\" is written on stream"


model = torch.nn.Linear(4, 4).cuda()
model(torch.randn(2, 4, device="cuda")).sum().backward()
average_gradients(model, stream=cp.cuda.Stream(non_blocking=True))
