# A helper whose stream parameter defaults to None, which it replaces by
# CuPy's null stream, and which no caller passes: every operation runs
# on the legacy default stream, the one torch's kernels use too.
import cupy as cp
import torch
from cupy.cuda import nccl
from mpi4py import MPI

comm = MPI.COMM_WORLD
uid = comm.bcast(nccl.get_unique_id() if comm.rank == 0 else None, root=0)
cp.cuda.runtime.setDevice(comm.rank % torch.cuda.device_count())
ncomm = nccl.NcclCommunicator(comm.size, uid, comm.rank)


def copy_model(model, stream=None):
    if stream is None:
        stream = cp.cuda.Stream.null.ptr
    else:
        stream = stream.ptr
    for param in model.parameters():
        ncomm.bcast(param.data_ptr(), param.numel(), nccl.NCCL_FLOAT32, 0, stream)


def average_gradients(model, stream=None):
    if stream is None:
        stream = cp.cuda.Stream.null.ptr
    else:
        stream = stream.ptr
    for param in model.parameters():
        recv = torch.zeros_like(param.grad)
        ncomm.allReduce(param.grad.data_ptr(), recv.data_ptr(), param.numel(), nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream)
        param.grad = recv / comm.size


model = torch.nn.Linear(4, 4).cuda()
copy_model(model)
model(torch.randn(2, 4, device="cuda")).sum().backward()
average_gradients(model)
