# xformers' fused all-gather + matmul: the copy stream waits a "wait"
# stream that waited the current stream first, so the copy stream is
# ordered after the current stream's work too (stream waits chain). The
# rank and index arithmetic is Python ints, no device memory.
import torch


class FusedLinear:
    def __init__(self, my_rank, world_size):
        self.my_rank = my_rank
        self.world_size = world_size
        self.memcpy_wait_stream = torch.cuda.Stream()
        self.memcpy_stream = torch.cuda.Stream()

    def run(self, scattered, numels):
        buffers = [torch.empty(numels) for _ in range(self.world_size)]
        current_stream = torch.cuda.current_stream()
        self.memcpy_wait_stream.wait_stream(current_stream)
        for iter_ in range(1, self.world_size):
            dst_rank = (self.my_rank + iter_) % self.world_size
            with torch.cuda.stream(self.memcpy_wait_stream):
                signal(dst_rank)
            self.memcpy_stream.wait_stream(self.memcpy_wait_stream)
            with torch.cuda.stream(self.memcpy_stream):
                for bs, si in zip(buffers[dst_rank], scattered):
                    bs[self.my_rank].copy_(si)
        current_stream.wait_stream(self.memcpy_stream)
        return buffers


def signal(rank):
    pass
