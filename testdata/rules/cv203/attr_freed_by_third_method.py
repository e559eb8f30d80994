# One method casts the shard on its stream, another gathers from it on a
# second stream, a third frees its storage without recording the second
# stream (FSDP1's _mp_shard, pytorch/pytorch PR #91096, S9).
import torch
import torch.distributed as dist


class Handle:
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
        torch.cuda.current_stream().wait_stream(self.gather_stream)

    def free_low(self):
        low = self.low
        del self.low
        low.untyped_storage().resize_(0)  # want CV203 "\"self.low\" is allocated on self.cast_stream .* used on self.gather_stream"
