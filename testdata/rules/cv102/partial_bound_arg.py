# A gradient hook made with functools.partial binding the object it works
# on (ColossalAI and FSDP register hooks this way): the bound argument
# reaches the handler's first parameter, the gradient the second, and the
# handler's call on the object all-reduces on the autograd engine's thread.
import weakref
from functools import partial

import torch.distributed as dist


def _grad_handler(strategy, grad):
    strategy.run_reduction(grad)


class Strategy:
    def __init__(self, params, group):
        self.group = group
        for p in params:
            p.register_post_accumulate_grad_hook(partial(_grad_handler, weakref.proxy(self)))

    def run_reduction(self, grad):
        dist.all_reduce(grad, group=self.group)  # want CV102 "all_reduce .*register_post_accumulate_grad_hook"
