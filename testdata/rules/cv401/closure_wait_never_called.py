# A closure that would wait the handle, never called nor handed on
# (safe_closure_wait.py returns or calls it).
import torch
import torch.distributed as dist


def unused(x):
    out = torch.empty_like(x)
    comm = dist.all_to_all_single(out, x, async_op=True)  # want CV401 "\"comm\", the work handle of this all_to_all_single, is never waited"

    def wait():
        comm.wait()
        return out

    return out
