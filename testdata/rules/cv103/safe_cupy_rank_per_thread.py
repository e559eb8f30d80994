# One NCCL communicator with a rank per thread, each on its own GPU:
# every thread makes its rank from the unique id the starter made once
# (NCCL's one device per thread, written with CuPy; RWKVinLLAMA's test
# clients).
import threading

import cupy as cp
from cupy.cuda import nccl


def worker(uid, nranks, rank):
    cp.cuda.Device(rank).use()
    comm = nccl.NcclCommunicator(nranks, uid, rank)
    stream = cp.cuda.Stream.null
    x = cp.ones(1024, dtype=cp.float32)
    comm.allReduce(x.data.ptr, x.data.ptr, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
    stream.synchronize()


def main():
    nranks = 2
    uid = nccl.get_unique_id()
    threads = [threading.Thread(target=worker, args=(uid, nranks, r)) for r in range(nranks)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
