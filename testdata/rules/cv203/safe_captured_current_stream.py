# The stream that is current is captured in a variable before entering the
# side stream's context (inside it, current_stream() would return the side
# stream), and the side stream waits on that variable: the write on the
# compute stream is ordered before the read on the side stream.
import torch


class Offloader:
    def __init__(self):
        self.d2h = torch.cuda.Stream()
        self.comm = torch.cuda.Stream()

    def pack(self, x):
        y = x * 2
        compute_stream = torch.cuda.current_stream()
        with torch.cuda.stream(self.d2h):
            self.d2h.wait_stream(compute_stream)
            host = y.to("cpu", non_blocking=True)
        self.d2h.synchronize()  # the copy into host memory has finished
        return host

    def scale(self, model, batch):
        grad = model(batch)
        main = torch.cuda.default_stream()
        self.comm.wait_stream(main)
        with torch.cuda.stream(self.comm):
            out = grad * 0.5
        main.wait_stream(self.comm)
        return out * 2
