# The same attribute, its raw calls on a side stream of the object's own
# and its backend calls on the caller's: one communicator, two streams.
import cupy
import cupyx.distributed
from cupy.cuda import nccl


class Group:
    def __init__(self, world, rank, is_world, uid):
        self._is_world = is_world
        self._side = cupy.cuda.Stream(non_blocking=True)
        if is_world:
            self._backend = cupyx.distributed.NCCLBackend(world, rank)
        else:
            self._backend = nccl.NcclCommunicator(world, uid, rank)

    def reduce(self, buf, out, root, stream):
        if self._is_world:
            self._backend.reduce(buf, out, root, "sum", stream)
        else:
            self._backend.reduce(buf.data.ptr, out.data.ptr, buf.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, root, self._side.ptr)  # want CV201 "stream"
