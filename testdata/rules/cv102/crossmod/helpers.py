import torch.distributed as dist


def reduce_grad(grad, group=None):
    dist.all_reduce(grad, group=group)  # want CV102 "runs in a callback registered with Tensor.register_hook"
    return grad
