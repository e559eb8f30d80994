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


def pipelined_last_dropped(params, buf):
    # The closure waits each pass's previous handle, but nothing calls it
    # after the loop: the last pass's handle is never waited.
    handle = None

    def finish_prev():
        handle.wait()

    for i in range(len(params)):
        if i > 0:
            finish_prev()
        handle = dist.all_gather_into_tensor(buf, params[i].grad.flatten(), async_op=True)  # want CV401 "\"handle\", the work handle of this all_gather_into_tensor, is never waited"


def called_before(x, buf):
    # Called before the handle exists: it waits nothing of it.
    handle = None

    def finish():
        if handle is not None:
            handle.wait()

    finish()
    handle = dist.all_gather_into_tensor(buf, x, async_op=True)  # want CV401 "\"handle\", the work handle of this all_gather_into_tensor, is never waited"
    return buf
