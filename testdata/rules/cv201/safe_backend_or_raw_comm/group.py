# One attribute holds a cupyx NCCLBackend for the world group and a raw
# NcclCommunicator for subgroups (xoscar's process group). Each call is
# read with the signature its argument count fits: the raw calls take
# the stream last too, and every call passes the same stream.
import cupyx.distributed
from cupy.cuda import nccl


class Group:
    def __init__(self, world, rank, is_world, uid):
        self._is_world = is_world
        if is_world:
            self._backend = cupyx.distributed.NCCLBackend(world, rank)
        else:
            self._backend = nccl.NcclCommunicator(world, uid, rank)

    def reduce(self, buf, out, root, stream):
        if self._is_world:
            self._backend.reduce(buf, out, root, "sum", stream)
        else:
            self._backend.reduce(buf.data.ptr, out.data.ptr, buf.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, root, stream.ptr)

    def send(self, buf, peer, stream):
        if self._is_world:
            self._backend.send(buf, peer, stream)
        else:
            self._backend.send(buf.data.ptr, buf.size, nccl.NCCL_FLOAT32, peer, stream.ptr)
