# The fixed shape: the method makes the current stream wait for the
# reduction before the caller reuses the bucket.
import torch
import torch.distributed as dist


class Reducer:
    def __init__(self, numel, group):
        self.group = group
        self.stream = torch.cuda.Stream()
        self.bucket = torch.empty(numel, device="cuda")
        self.offset = 0

    def add(self, grad):
        if self.offset + grad.numel() > self.bucket.numel():
            self.flush()
        self.bucket.narrow(0, self.offset, grad.numel()).copy_(grad.view(-1))
        self.offset += grad.numel()

    def flush(self):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            dist.all_reduce(self.bucket, group=self.group)
        torch.cuda.current_stream().wait_stream(self.stream)
        self.offset = 0

    def flush_and_sync(self):
        # A method whose own hazards are its own: the caller below reads
        # nothing the callee left pending.
        self.flush()
        return self.offset is not None
