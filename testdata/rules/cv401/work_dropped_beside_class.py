# The class defined here waits another handle; this receive's work is
# neither waited nor handed on.
import torch.distributed.distributed_c10d as c10d


def irecv_pair(a, b, tag=0):
    pg = c10d._get_default_group()
    first = pg.recv_anysource([a], tag)
    second = pg.recv_anysource([b], tag)  # want CV401 "second"

    class Waiter:
        def wait(self):
            first.wait()

    return Waiter()
