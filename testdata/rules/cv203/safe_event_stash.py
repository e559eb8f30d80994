# Activation offloading (torchtitan's shape): the copy to the host buffer
# runs on a side stream, an event is recorded there, and the buffer is
# stashed together with the event for the consumer to wait. Storing it
# reads nothing; the event carries the ordering.
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
        ev = torch.cuda.Event()
        ev.record(self.d2h)
        self.stash[key] = (buf, ev)
        return key
