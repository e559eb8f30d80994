# The current stream held in a local bound only on CUDA devices
# (`current = torch.cuda.current_stream(d) if d.type == "cuda" else None`):
# where it holds a stream, it holds the current one, and its waits order
# the copies and the broadcast after them (nnscaler's checkpoint
# broadcast).
import torch
import torch.distributed as dist


def load(dst, packed, device):
    current = torch.cuda.current_stream(device) if device.type == "cuda" else None
    copy_stream = torch.cuda.Stream(device=device)
    copy_stream.wait_stream(current)
    with torch.cuda.stream(copy_stream):
        dst.copy_(packed, non_blocking=True)
        event = torch.cuda.Event()
        event.record(copy_stream)
    current.wait_event(event)
    work = dist.broadcast(dst, src=0, async_op=True)
    work.wait()
