from cupy.cuda import nccl


def step(a, b, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)
    comm.allReduce(b.data.ptr, b.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)
