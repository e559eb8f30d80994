# A custom op's backward registered with torch.library runs on the
# autograd engine's thread, like a Function's backward.
import torch
import torch.distributed as dist


@torch.library.custom_op("demo::gather", mutates_args=())
def gather(x: torch.Tensor) -> torch.Tensor:
    out = x.new_empty((x.shape[0] * 2, *x.shape[1:]))
    dist.all_gather_into_tensor(out, x)
    return out


def backward(ctx, grad):
    out = grad.new_empty((grad.shape[0] // 2, *grad.shape[1:]))
    dist.reduce_scatter_tensor(out, grad.contiguous())  # want CV102 "register_autograd"
    return out


def scatter_backward(ctx, grad):
    dist.all_reduce(grad)  # want CV102 "register_autograd"
    return grad


gather.register_autograd(backward)
torch.library.register_autograd("demo::scatter", scatter_backward)
