# The shape of torch.distributed's own wrappers: the handle is bound on both
# arms of a branch, then returned or waited.
import torch.distributed as dist


def all_gather_base(output, inp, group=None, async_op=False):
    if group is None:
        default_pg = dist.distributed_c10d._get_default_group()
        work = default_pg._allgather_base(output, inp)
    else:
        work = group._allgather_base(output, inp)
    if async_op:
        return work
    else:
        work.wait()
