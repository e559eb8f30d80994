# A job on host memory only: every group is gloo's and no device is
# named anywhere, so the autograd engine runs this backward on the thread
# that called backward(), as it does for all CPU work.
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
        dist.all_reduce(gx, group=get_tp_group())
        return gx, x.t() @ g


w = torch.nn.Parameter(torch.randn(3, 2))
x = torch.randn(4, 3, requires_grad=True)
ParallelLinearFn.apply(x, w).sum().backward()
