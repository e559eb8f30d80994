# Fixed: the caller records the current stream before freeing; a second
# method frees through FSDP's _typed_storage()._resize_(0) after the
# record; a third keeps the buffer (no free).
import torch
import torch.distributed as dist


class Gather:
    def __init__(self, shard, group):
        self.shard = shard
        self.group = group
        self.stream = torch.cuda.Stream()

    def unshard(self):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            full = torch.empty(self.shard.numel() * 8, device="cuda")
            dist.all_gather_into_tensor(full, self.shard, group=self.group)
        torch.cuda.current_stream().wait_stream(self.stream)
        return full

    def forward(self, x):
        full = self.unshard()
        y = x @ full.view(x.shape[-1], -1)
        full.record_stream(torch.cuda.current_stream())
        full.untyped_storage().resize_(0)
        return y

    def forward_fsdp_free(self, x):
        full = self.unshard()
        y = x @ full.view(x.shape[-1], -1)
        full.record_stream(torch.cuda.current_stream())
        full._typed_storage()._resize_(0)
        return y

    def forward_keep(self, x):
        self.full = self.unshard()
        return x @ self.full.view(x.shape[-1], -1)
