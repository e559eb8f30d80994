# Each thread drives its own gloo group through the group object
# (pg.allreduce): no group is shared between threads, and gloo groups
# are no device communicators.
import threading

import torch
import torch.distributed as dist

pg_a = dist.new_group([0, 1], backend="gloo")
pg_b = dist.new_group([0, 1], backend="gloo")


def run(pg):
    t = torch.ones(1)
    pg.allreduce([t]).wait()


threading.Thread(target=run, args=(pg_a,)).start()
threading.Thread(target=run, args=(pg_b,)).start()
