import cupy
from cupy.cuda import nccl


def share(buf, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    compute = cupy.cuda.Stream(non_blocking=True)
    copy = cupy.cuda.Stream(non_blocking=True)
    comm.bcast(buf.data.ptr, n, nccl.NCCL_FLOAT32, 0, compute.ptr)
    comm.bcast(buf.data.ptr, n, nccl.NCCL_FLOAT32, 0, copy.ptr)  # want CV201 "bcast"
