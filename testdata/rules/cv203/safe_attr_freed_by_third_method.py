# The same class, fixed two ways: the freeing method records the stream
# that used the shard; or the allocating stream waits for the gathering
# one before anything reuses the memory.
import torch
import torch.distributed as dist


class Recorded:
    def __init__(self, shard, group):
        self.shard = shard
        self.group = group
        self.cast_stream = torch.cuda.Stream()
        self.gather_stream = torch.cuda.Stream()

    def cast(self):
        with torch.cuda.stream(self.cast_stream):
            self.low = self.shard.to(torch.float16)

    def gather(self, out):
        self.gather_stream.wait_stream(self.cast_stream)
        with torch.cuda.stream(self.gather_stream):
            dist.all_gather_into_tensor(out, self.low, group=self.group)

    def free_low(self):
        low = self.low
        low.record_stream(self.gather_stream)
        low.untyped_storage().resize_(0)


class Ordered:
    def __init__(self, shard, group):
        self.shard = shard
        self.group = group
        self.cast_stream = torch.cuda.Stream()
        self.gather_stream = torch.cuda.Stream()

    def cast(self):
        self.cast_stream.wait_stream(self.gather_stream)
        with torch.cuda.stream(self.cast_stream):
            self.low = self.shard.to(torch.float16)

    def gather(self, out):
        self.gather_stream.wait_stream(self.cast_stream)
        with torch.cuda.stream(self.gather_stream):
            dist.all_gather_into_tensor(out, self.low, group=self.group)

    def free_low(self):
        self.low.untyped_storage().resize_(0)


class SameStream:
    def __init__(self, shard):
        self.shard = shard
        self.side = torch.cuda.Stream()

    def cast(self):
        with torch.cuda.stream(self.side):
            self.low = self.shard.to(torch.float16)

    def use(self):
        with torch.cuda.stream(self.side):
            return self.low * 2

    def free_low(self):
        self.low.untyped_storage().resize_(0)
