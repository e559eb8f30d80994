# A buffer a kernel computes on the current stream, kept in a dict and
# sent from the copy stream with no wait.
import torch
import torch.distributed as dist


class Sender:
    def __init__(self, group):
        self.group = group
        self.copy_stream = torch.cuda.Stream()
        self.send_buffers = {}

    def send(self, tensor, mb_idx, dst):
        self.send_buffers[mb_idx] = tensor * 2
        buf = self.send_buffers[mb_idx]
        with torch.cuda.stream(self.copy_stream):
            work = dist.isend(buf, dst, group=self.group)  # want CV203 "is written on the current stream"
        return work
