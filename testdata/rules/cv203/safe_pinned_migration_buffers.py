# llumnix's migration backend: pinned host buffers, views of them taken
# by a free-list index, and host-to-host copies into them, handed to a
# copy on the migration stream. A view or an element of a Python list
# runs no kernel, and a copy into host memory has finished when copy_
# returns: nothing is pending on the current stream.
import queue

import torch


def swap_blocks(src, dst, mapping):
    dst.copy_(src, non_blocking=True)


class Backend:
    def __init__(self, gpu_cache, num_buffers=2):
        self.gpu_cache = gpu_cache
        self.dummy = torch.empty((8, 4096), dtype=torch.float16, device="cpu", pin_memory=True)
        self.dummy_buffer = [torch.empty((8, 4096), dtype=torch.float16, pin_memory=True) for _ in range(num_buffers)]
        self.free = queue.Queue()
        self.migration_stream = torch.cuda.Stream()

    def do_send(self, blocks, num_blocks):
        idx = self.free.get()
        send_cache = self.dummy_buffer[idx][:num_blocks].view(num_blocks, 4096)
        mapping = torch.tensor([(b, i) for i, b in enumerate(blocks)], dtype=torch.int64, device="cpu",
                               pin_memory=True).view(-1, 2)
        with torch.cuda.stream(self.migration_stream):
            swap_blocks(self.gpu_cache, send_cache, mapping)
        self.migration_stream.synchronize()
        out = send_cache.numpy().copy()
        self.free.put(idx)
        return out

    def do_recv(self, numpy_cache, num_blocks):
        recv_cache = self.dummy[:num_blocks].view(num_blocks, 4096)
        recv_cache.copy_(torch.from_numpy(numpy_cache))
        with torch.cuda.stream(self.migration_stream):
            swap_blocks(recv_cache, self.gpu_cache, None)
        self.migration_stream.synchronize()
