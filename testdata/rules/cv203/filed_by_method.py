# A method that only files its tensor arguments in a list (host-side
# bookkeeping of pending work) reads no device memory on the side stream.
import torch
import torch.distributed as dist

comm_stream = torch.cuda.Stream()


class Pending:
    def __init__(self):
        self.ops = []

    def add(self, handle, tensors):
        self.ops.append((handle, tensors))

    def concat(self, handle, tensors):
        self.ops.append((handle, torch.cat(tensors)))


pending = Pending()


def sync(grads):
    flat = torch.cat([g.flatten() for g in grads])
    comm_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm_stream):
        handle = dist.all_reduce(flat, async_op=True)
    grads = [g * 2 for g in grads]
    with torch.cuda.stream(comm_stream):
        pending.add(handle, grads)
    return flat


def sync_read(grads):
    flat = torch.cat([g.flatten() for g in grads])
    comm_stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm_stream):
        handle = dist.all_reduce(flat, async_op=True)
    grads = [g * 2 for g in grads]
    with torch.cuda.stream(comm_stream):
        pending.concat(handle, grads)  # want CV203 "\"grads\" is written on the current stream"
    return flat
