# The helper returns the work handle for the caller to wait, but copies
# the output back to the host first: with async_op=True that copy reads
# the buffer while the all-reduce may still be writing it.
import torch
import torch.distributed as tdist


def allreduce(t: torch.Tensor, async_op=False):
    if not t.is_cuda:
        cu = t.detach().cuda()
        ret = tdist.all_reduce(cu, async_op=async_op)
        t.copy_(cu.cpu())  # want CV401 "\"cu\" is read here while all_reduce .* is returned for the caller to wait"
    else:
        ret = tdist.all_reduce(t, async_op=async_op)
    return ret


def allreduce_waited(t: torch.Tensor, async_op=False):
    cu = t.detach().cuda()
    ret = tdist.all_reduce(cu, async_op=async_op)
    if ret is not None:
        ret.wait()
    t.copy_(cu.cpu())
    return ret
