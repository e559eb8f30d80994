# DeepSpeed ZeRO-1/2 reduces gradients from the hooks that
# deepspeed.utils.torch.register_grad_hook installs (a post-accumulate-
# grad hook, or the grad accumulator's): the all-reduce runs on the
# autograd engine's device thread (S5, A3).
import torch
from deepspeed import comm as dist
from deepspeed.utils.torch import register_grad_hook


class Optimizer:
    def __init__(self, params, group):
        self.group = group
        self.hooks = []
        for p in params:
            self.hooks.append(register_grad_hook(p, self.reduce_hook))

    def reduce_hook(self, param):
        dist.all_reduce(param.grad, group=self.group)  # want CV102 "register_grad_hook"


def train(model, params, group, batch):
    Optimizer(params, group)
    model(batch).sum().backward()
    dist.barrier()
