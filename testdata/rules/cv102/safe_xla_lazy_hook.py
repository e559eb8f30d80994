# A PyTorch/XLA collective in a grad-accumulator hook (torch_xla's FSDP):
# xm.reduce_scatter records an op into the lazy graph; nothing is launched
# from the autograd thread. The graph runs at xm.mark_step() on the main
# thread, so the hook's host thread does not matter.
import functools
import torch
import torch_xla.core.xla_model as xm


class Shard(torch.nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def _post_backward_hook(self, param, *unused):
        reduced = xm.reduce_scatter(xm.REDUCE_SUM, param.grad.detach(), scale=1.0,
                                    scatter_dim=0, shard_count=xm.xrt_world_size())
        param.grad = reduced

    def forward(self, x):
        p_tmp = self.p.expand_as(self.p)
        grad_acc = p_tmp.grad_fn.next_functions[0][0]
        grad_acc.register_hook(functools.partial(self._post_backward_hook, self.p))
        return x * self.p


def main():
    m = Shard(torch.nn.Parameter(torch.ones(8, device=xm.xla_device())))
    m(torch.ones(8, device=xm.xla_device())).sum().backward()
    xm.all_reduce(xm.REDUCE_SUM, [m.p])
    xm.mark_step()


if __name__ == "__main__":
    main()

