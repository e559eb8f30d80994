# The copy stream waits the "wait" stream before that stream waited the
# current stream: nothing orders the copy after the current stream's
# write of buffers.
import torch


class FusedLinear:
    def __init__(self, world_size):
        self.world_size = world_size
        self.memcpy_wait_stream = torch.cuda.Stream()
        self.memcpy_stream = torch.cuda.Stream()

    def run(self, scattered, numels):
        current_stream = torch.cuda.current_stream()
        self.memcpy_stream.wait_stream(self.memcpy_wait_stream)
        self.memcpy_wait_stream.wait_stream(current_stream)
        buffers = torch.zeros(numels)
        with torch.cuda.stream(self.memcpy_stream):
            buffers.copy_(scattered)  # want CV203 "buffers"
        return buffers  # want CV203 "buffers"
