# The host waits on an event, but not for the write: the event was
# recorded on another stream, or before the write.
import torch
import torch.distributed as dist


def recorded_on_side(h, w, peer, comm_stream, side):
    send = torch.matmul(h, w.t())
    ev = torch.cuda.Event()
    ev.record(side)
    ev.synchronize()
    with torch.cuda.stream(comm_stream):
        dist.isend(send, peer).wait()  # want CV203 "written on the current stream"


def recorded_before_write(h, w, peer, comm_stream):
    ev = torch.cuda.Event()
    ev.record(torch.cuda.current_stream())
    ev.synchronize()
    send = torch.matmul(h, w.t())
    with torch.cuda.stream(comm_stream):
        dist.isend(send, peer).wait()  # want CV203 "written on the current stream"
