# Horovod's asynchronous ops return handles for hvd.synchronize().
import horovod.torch as hvd


def step(t, ts):
    hvd.broadcast_async_(t, root_rank=0)  # want CV401 "broadcast_async_"
    h = hvd.grouped_allreduce_async_(ts)
    hvd.synchronize(h)
