# fairscale's OSS broadcast buckets: bucket.full() is the program's own
# Bucket.full, a count every rank computes alike for the same parameters,
# not a queue's fullness (the receiver is a parameter the analysis has no
# value for, so only the name is known).
import torch.distributed as dist


class Bucket:
    def __init__(self, buffer, max_offset):
        self.buffer, self.max_offset, self.current_offset = buffer, max_offset, 0

    def append(self, n):
        self.current_offset += n

    def full(self):
        return self.current_offset == self.max_offset


def broadcast_params(params, bucket, src, group):
    for p in params:
        bucket.append(p.numel())
        if bucket.full():
            dist.broadcast(bucket.buffer, src=src, group=group)
