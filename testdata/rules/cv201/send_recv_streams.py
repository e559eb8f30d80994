import cupy
from cupy.cuda import nccl


def share(grad, params, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    reduce_s = cupy.cuda.Stream()
    bcast_s = cupy.cuda.Stream()
    comm.allReduce(grad.data.ptr, grad.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, reduce_s.ptr)
    comm.bcast(params.data.ptr, n, nccl.NCCL_FLOAT32, 0, bcast_s.ptr)  # want CV201 "bcast .*allReduce"
