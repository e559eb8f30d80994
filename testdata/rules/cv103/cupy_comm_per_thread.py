# Each thread makes a communicator of its own (a unique id per thread):
# several communicators on one device, driven from several threads.
import threading

import cupy as cp
from cupy.cuda import nccl


def worker(uid, nranks, rank):
    cp.cuda.Device(0).use()
    comm = nccl.NcclCommunicator(nranks, uid, rank)
    stream = cp.cuda.Stream.null
    x = cp.ones(1024, dtype=cp.float32)
    comm.allReduce(x.data.ptr, x.data.ptr, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)  # want CV103 "communicator"
    stream.synchronize()


def main():
    threads = [threading.Thread(target=worker, args=(nccl.get_unique_id(), 1, 0)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
