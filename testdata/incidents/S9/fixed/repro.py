import torch
import torch.distributed as dist


class FlatParamHandle:
    def __init__(self, flat_param, group):
        self.flat_param = flat_param
        self.group = group
        self.world = dist.get_world_size(group)
        self.pre_unshard_stream = torch.cuda.Stream()
        self.unshard_stream = torch.cuda.Stream()

    def pre_unshard(self):
        with torch.cuda.stream(self.pre_unshard_stream):
            self.flat_param._mp_shard = self.flat_param._local_shard.to(torch.float16)

    def unshard(self):
        self.unshard_stream.wait_stream(self.pre_unshard_stream)
        with torch.cuda.stream(self.unshard_stream):
            mp_shard = self.flat_param._mp_shard
            full = torch.empty(mp_shard.numel() * self.world, dtype=mp_shard.dtype, device="cuda")
            dist.all_gather_into_tensor(full, mp_shard, group=self.group)
            self.flat_param._full_param_padded = full
        torch.cuda.current_stream().wait_stream(self.unshard_stream)

    def free_low_precision_shard(self):
        mp_shard = self.flat_param._mp_shard
        mp_shard.record_stream(torch.cuda.current_stream())
        del self.flat_param._mp_shard
        mp_shard.untyped_storage().resize_(0)
