# Horovod's in-place, grouped, object and optimizer-state ops are
# collectives too: issued by rank 0 alone, the others never match them.
import horovod.torch as hvd


def sync_inplace(t):
    if hvd.rank() == 0:
        hvd.allreduce_(t)  # want CV301 "allreduce_"


def sync_grouped(ts):
    if hvd.rank() == 0:
        hvd.grouped_allreduce(ts)  # want CV301 "grouped_allreduce"


def sync_optimizer(opt):
    if hvd.rank() == 0:
        hvd.broadcast_optimizer_state(opt, root_rank=0)  # want CV301 "broadcast_optimizer_state"


def gather_meta(meta):
    if hvd.rank() == 0:
        hvd.allgather_object(meta)  # want CV301 "allgather_object"


def safe_sync(t, opt):
    hvd.allreduce_(t)
    hvd.broadcast_optimizer_state(opt, root_rank=0)
    if hvd.rank() == 0:
        print(t)
