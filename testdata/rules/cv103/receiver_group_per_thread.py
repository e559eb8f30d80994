# Two NCCL communicators, one per thread, each driven through the object
# itself (cupy's NcclCommunicator.allReduce): the threads launch on their
# own communicators in an order no rank agrees on (M4).
import threading

import cupy
from cupy.cuda import nccl

comm_a = nccl.NcclCommunicator(2, nccl.get_unique_id(), 0)
comm_b = nccl.NcclCommunicator(2, nccl.get_unique_id(), 0)


def run(comm):
    stream = cupy.cuda.Stream()
    x = cupy.ones(1 << 20, dtype=cupy.float32)
    comm.allReduce(x.data.ptr, x.data.ptr, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)  # want CV103 "NcclCommunicator"
    stream.synchronize()


ta = threading.Thread(target=run, args=(comm_a,))
tb = threading.Thread(target=run, args=(comm_b,))
ta.start()
tb.start()
ta.join()
tb.join()
