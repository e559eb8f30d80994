# torchft's pure-Python DDP: a gradient hook all-reduces through the
# manager, a class of the project outside the analysed files. Its
# allreduce is guessed from the name, as for any receiver of unknown
# kind: the tables describe other libraries' classes, not this one.
import torch
from torch import nn

from torchft.manager import Manager


class DistributedDataParallel(nn.Module):
    def __init__(self, manager: "Manager", module: nn.Module) -> None:
        super().__init__()
        self.module = module

        def post_grad_hook(p: torch.Tensor) -> None:
            if p.grad is not None:
                fut = manager.allreduce(p.grad)  # want CV102 "allreduce .* Tensor.register_post_accumulate_grad_hook"
                fut.wait()

        for p in module.parameters():
            p.register_post_accumulate_grad_hook(post_grad_hook)

    def forward(self, *args):
        return self.module(*args)
