# An async collective's wait() makes only the stream current at the wait
# wait for the work (V-Net-JEPA's ring attention): the received buffer is
# read on a compute stream that never waits for that one.
import torch
import torch.distributed as dist


def recv_then_use(q, k):
    rank, world = dist.get_rank(), dist.get_world_size()
    comp = torch.cuda.Stream()
    comm = torch.cuda.Stream()
    comp.wait_stream(torch.cuda.current_stream())
    comm.wait_stream(torch.cuda.current_stream())
    buf = torch.empty_like(k)
    with torch.cuda.stream(comm):
        rreq = dist.irecv(buf, src=(rank - 1) % world)
    rreq.wait()
    with torch.cuda.stream(comp):
        out = q @ buf.t()  # want CV203 "by irecv .*whose wait\(\) at line 17 orders only that stream"
    torch.cuda.current_stream().wait_stream(comp)
    return out


def waited_inside_side_stream(x):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        work = dist.all_reduce(x, async_op=True)
        work.wait()
    return x * 2  # want CV203 "by all_reduce .*orders only that stream"
