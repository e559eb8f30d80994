# A tensor-parallel rank is the same on every member of a data-parallel
# group (its members sit at one position of the tensor-parallel
# dimension), and a low-rank adapter's rank is a size, not a process's.
import torch.distributed as dist


class Layer:
    def __init__(self, tp_rank, dp_group, lora_rank):
        self.tp_rank = tp_rank
        self.dp_group = dp_group
        self.lora_rank = lora_rank

    def sync_dp(self, x):
        if self.tp_rank == 0:
            dist.all_reduce(x, group=self.dp_group)

    def sync_lora(self, x):
        if self.lora_rank > 8:
            dist.all_reduce(x)
