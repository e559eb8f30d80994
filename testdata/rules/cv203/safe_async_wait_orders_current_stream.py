# The stream that reads an async collective's output is the one its
# wait() ran on, or waits for that one after the wait.
import torch
import torch.distributed as dist


def read_where_waited(q, k):
    rank, world = dist.get_rank(), dist.get_world_size()
    comm = torch.cuda.Stream()
    comm.wait_stream(torch.cuda.current_stream())
    buf = torch.empty_like(k)
    with torch.cuda.stream(comm):
        rreq = dist.irecv(buf, src=(rank - 1) % world)
    rreq.wait()
    return q @ buf.t()


def side_waits_after_wait(q, k):
    rank, world = dist.get_rank(), dist.get_world_size()
    comp = torch.cuda.Stream()
    buf = torch.empty_like(k)
    rreq = dist.irecv(buf, src=(rank - 1) % world)
    rreq.wait()
    comp.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comp):
        out = q @ buf.t()
    torch.cuda.current_stream().wait_stream(comp)
    return out


def waited_on_the_reading_stream(x):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    work = dist.all_reduce(x, async_op=True)
    with torch.cuda.stream(side):
        work.wait()
        y = x * 2
    torch.cuda.current_stream().wait_stream(side)
    return y


def side_waited_back(x):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        work = dist.all_reduce(x, async_op=True)
        work.wait()
    torch.cuda.current_stream().wait_stream(side)
    return x * 2
