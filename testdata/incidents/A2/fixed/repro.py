import torch
import torch.distributed as dist


class _FP8LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, module):
        ctx.save_for_backward(x, weight)
        ctx.module = module
        return torch.nn.functional.linear(x, weight)

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        module = ctx.module
        module.amax_history.copy_(grad_out.abs().max().reshape(1))
        dist.all_reduce(module.amax_history, op=dist.ReduceOp.MAX, group=module.amax_group)
        return grad_out @ weight, grad_out.t() @ x, None


class FP8Linear(torch.nn.Module):
    def __init__(self, in_features, out_features, amax_group):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.empty(out_features, in_features, device="cuda"))
        self.amax_group = amax_group
        self.amax_history = torch.zeros(1, device="cuda")

    def forward(self, x):
        return _FP8LinearFn.apply(x, self.weight, self)
