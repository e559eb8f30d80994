import torch.distributed as dist
from torch import nn


class Probe(nn.Module):
    def __init__(self, group):
        super().__init__()
        self.group = group

    def on_backward(self, module, grad_input, grad_output):
        dist.all_reduce(grad_output[0], group=self.group)  # want CV102 "register_full_backward_hook"


def install(model, group):
    probe = Probe(group)
    model.register_full_backward_hook(probe.on_backward)
