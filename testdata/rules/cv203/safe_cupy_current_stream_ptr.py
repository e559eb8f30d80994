# The NCCL call runs on the current stream, named by its raw pointer in a
# local: the stream that wrote `x` and then reads it.
import cupy as cp
from cupy.cuda import nccl
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
uid = comm.bcast(nccl.get_unique_id() if rank == 0 else None, 0)
nc = nccl.NcclCommunicator(size, uid, rank)

x = cp.random.rand(1024)
stream_ptr = cp.cuda.get_current_stream().ptr
nc.allReduce(x.data.ptr, x.data.ptr, x.size, nccl.NCCL_FLOAT64, nccl.NCCL_SUM, stream_ptr)
print(cp.sum(x))
