# The same stash without an event: whoever takes the buffer has nothing
# to wait, so handing it on is reported where it leaves the stream.
import torch


class Offloader:
    def __init__(self, alloc):
        self.d2h = torch.cuda.Stream()
        self.stash = {}
        self.alloc = alloc

    def pack(self, tensor, key):
        buf = self.alloc(tensor)
        self.d2h.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h):
            buf.copy_(tensor, non_blocking=True)
        self.stash[key] = (buf, tensor)  # want CV203 "\"buf\" is written on self.d2h"
        return key
