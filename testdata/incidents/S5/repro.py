import torch
import torch.distributed as dist
from deepspeed.accelerator import get_accelerator


class BucketReducer:
    def __init__(self, params, numel, dp_group):
        self.dp_group = dp_group
        self.reduction_stream = get_accelerator().Stream()
        self.bucket = torch.zeros(numel, device="cuda")
        self.offsets = {}
        off = 0
        for p in params:
            self.offsets[p] = off
            off += p.numel()
            p.register_post_accumulate_grad_hook(self.copy_grad_to_bucket)

    def copy_grad_to_bucket(self, p):
        off = self.offsets[p]
        self.bucket.narrow(0, off, p.numel()).copy_(p.grad.view(-1))

    def average_tensor(self):
        self.reduction_stream.wait_stream(get_accelerator().current_stream())
        with get_accelerator().stream(self.reduction_stream):
            dist.all_reduce(self.bucket, group=self.dp_group)
            self.bucket.div_(dist.get_world_size(self.dp_group))


def train_step(model, reducer, batch):
    loss = torch.compile(model)(batch).sum()
    loss.backward()
    reducer.average_tensor()
