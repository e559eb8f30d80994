# S13's fix: produce, reduce and consume on one stream; or reduce on a
# blocking stream, which CUDA orders with the legacy default stream.
import os

import cupy
from cupy.cuda import nccl

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
comm = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
compute = cupy.cuda.Stream(non_blocking=True)
N = 1 << 20

with compute:
    x = cupy.arange(N, dtype=cupy.float32)
comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, compute.ptr)
with compute:
    y = x * 2
compute.synchronize()

blocking = cupy.cuda.Stream()
other = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
buf = cupy.ones(N, dtype=cupy.float32)
other.allReduce(buf.data.ptr, buf.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, blocking.ptr)
blocking.synchronize()


def chainer_style(comm, grads):
    # Stream.null is the legacy default stream, where the gradients were
    # written (Chainer's multiprocess updater).
    gg = cupy.concatenate(grads)
    null_stream = cupy.cuda.Stream.null
    comm.reduce(gg.data.ptr, gg.data.ptr, gg.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0, null_stream.ptr)
    return gg * 2


def captured(func, niter):
    # What a stream's methods return (a graph, an event) is a handle.
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        stream.begin_capture()
        for _ in range(niter):
            func(stream)
        graph = stream.end_capture()
    graph.launch(stream)
