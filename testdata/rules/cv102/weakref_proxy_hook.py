# ColossalAI's low-level ZeRO shape: the gradient hook reaches its
# strategy through weakref.proxy(self), which stands for the object
# itself, and the strategy all-reduces on the autograd engine's thread.
import weakref
from functools import partial

import torch.distributed as dist


class Strategy:
    def __init__(self, params, group):
        self.group = group
        me = weakref.proxy(self)

        def grad_handler(grad, param):
            me.run_reduction(grad)
            return grad

        for p in params:
            p.register_post_accumulate_grad_hook(partial(grad_handler, param=p))

    def run_reduction(self, grad):
        dist.all_reduce(grad, group=self.group)  # want CV102 "all_reduce .*register_post_accumulate_grad_hook"
