# A torch copy on the current (legacy default) stream fills the buffer,
# then CuPy's NCCL send reads it through data_ptr() on a non-blocking
# stream, which does not wait for the default stream (RWKVinLLAMA's
# teacher server): the send can read the buffer before the copy ends.
import cupy as cp
import torch
from cupy.cuda import nccl


def serve(uid, nranks, result):
    cp.cuda.Device(0).use()
    comm = nccl.NcclCommunicator(nranks, uid, 0)
    stream = cp.cuda.Stream(non_blocking=True)
    buf = torch.empty(result.shape, dtype=torch.float32, device="cuda:0")
    buf.copy_(result)
    comm.send(buf.data_ptr(), buf.numel(), nccl.NCCL_FLOAT32, 1, stream.ptr)  # want CV203 "\"buf\" is written on the current stream"
    stream.synchronize()
