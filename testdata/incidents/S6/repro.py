import torch
import torch.distributed as dist


class Stage3GradReducer:
    def __init__(self, module, dp_group):
        self.dp_group = dp_group
        self.reduce_and_partition_stream = torch.cuda.Stream()
        self.world = dist.get_world_size(dp_group)
        for p in module.parameters():
            p.register_post_accumulate_grad_hook(self.reduce_ready_partitions_and_remove_grads)

    def reduce_ready_partitions_and_remove_grads(self, param):
        self.reduce_and_partition_stream.wait_stream(torch.cuda.default_stream())
        with torch.cuda.stream(self.reduce_and_partition_stream):
            grad = param.grad.view(-1)
            part = torch.empty(grad.numel() // self.world, dtype=grad.dtype, device=grad.device)
            dist.reduce_scatter_tensor(part, grad, group=self.dp_group)
            param.grad_partition = part
            param.grad = None
