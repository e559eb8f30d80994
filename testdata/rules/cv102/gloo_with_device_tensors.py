# The same gloo job with its tensors on the GPU (gloo reduces device
# tensors too): the engine runs this backward on its device thread.
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
W = dist.get_world_size()
TP = None
for r in range(W):
    ranks = list(range((r // 2) * 2, (r // 2) * 2 + 2))
    g = dist.new_group(ranks)
    if dist.get_rank() in ranks:
        TP = g


def get_tp_group():
    return TP


class ParallelLinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        out = x @ w
        parts = [torch.empty_like(out) for _ in range(2)]
        dist.all_gather(parts, out, group=get_tp_group())
        return torch.cat(parts, dim=-1)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g = torch.split(grad, w.size(-1), dim=-1)[dist.get_rank(group=get_tp_group())]
        gx = g @ w.t()
        dist.all_reduce(gx, group=get_tp_group())  # want CV102 "Function.backward"
        return gx, x.t() @ g


w = torch.nn.Parameter(torch.randn(3, 2, device="cuda"))
x = torch.randn(4, 3, device="cuda", requires_grad=True)
ParallelLinearFn.apply(x, w).sum().backward()
