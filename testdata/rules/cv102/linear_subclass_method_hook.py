# A tensor-parallel layer derived from nn.Linear registers a method of
# its own as a tensor hook in forward: calling the layer runs that
# forward, as for a direct subclass of nn.Module, so the hook's
# all_reduce runs on the autograd engine's thread.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class ColLinear(nn.Linear):
    def __init__(self, n, tp_group):
        self.tp_group = tp_group
        super().__init__(n, n)

    def _hook(self, grad):
        dist.all_reduce(grad, group=self.tp_group)  # want CV102 "new_group"

    def forward(self, x):
        x.register_hook(self._hook)
        return F.linear(x, self.weight)


def main():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    tp_group = dist.new_group([0, 1])
    model = ColLinear(8, tp_group).cuda()
    x = torch.randn(2, 8, device="cuda", requires_grad=True)
    y = model(x).sum()
    dist.all_reduce(y.detach(), group=tp_group)
    y.backward()
