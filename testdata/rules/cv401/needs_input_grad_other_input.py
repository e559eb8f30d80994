# Waited under the gradient of another input (x, index 0): the handle
# made for the weight gradient is not waited when only weight needs one.
import torch
import torch.distributed as dist


def all_gather_raw(x, group, async_op=False):
    out = torch.empty(dist.get_world_size(group) * x.shape[0], *x.shape[1:],
                      dtype=x.dtype, device=x.device)
    handle = dist.all_gather_into_tensor(out, x.contiguous(), group=group, async_op=async_op)
    return out, handle


class GatherLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, group):
        ctx.compute_weight_gradient = weight.requires_grad
        ctx.group = group
        ctx.save_for_backward(x, weight)
        total_x, _ = all_gather_raw(x, group)
        return total_x @ weight.t()

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        if ctx.compute_weight_gradient:
            total_x, handle_x = all_gather_raw(x, ctx.group, async_op=True)  # want CV401 "\"handle_x\", the work handle of the all_gather_into_tensor that all_gather_raw returns, is not waited on the path"
        grad_input = grad_output @ weight
        grad_weight = None
        if ctx.needs_input_grad[0]:
            handle_x.wait()
            grad_weight = grad_output.t() @ total_x
        return grad_input, grad_weight, None
