# The receive's work is captured by a method of a class defined here, and
# an instance is returned: whoever holds it waits the work (machin's
# CollectiveGroup.irecv returns such a Waiter).
import torch.distributed.distributed_c10d as c10d


def irecv_any(tensor, tag=0):
    pg = c10d._get_default_group()
    work = pg.recv_anysource([tensor], tag)

    class Waiter:
        def wait(self):
            work.wait()
            return work._source_rank()

    return Waiter()


def irecv_any_nonlocal(tensor, tag=0):
    pg = c10d._get_default_group()
    work = pg.recv_anysource([tensor], tag)

    class Waiter:
        def wait(self):
            nonlocal work
            work.wait()
            return work._source_rank()

    return Waiter()
