import cupy
from cupy.cuda import nccl


def shard_step(full, shard, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    rs_stream = cupy.cuda.Stream()
    ag_stream = cupy.cuda.Stream()
    comm.reduceScatter(full.data.ptr, shard.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, rs_stream.ptr)
    comm.allGather(shard.data.ptr, full.data.ptr, n, nccl.NCCL_FLOAT32, ag_stream.ptr)  # want CV201 "allGather .*reduceScatter"
