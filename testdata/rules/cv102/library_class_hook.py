# A library's data-parallel wrapper: nothing in the analysed tree builds
# it (its users' scripts do), so the analysis gives its methods their own
# class's instance as receiver. The hook it registers on each parameter,
# a bound method or a closure made by a factory method, all-reduces on the
# autograd engine's thread (fairscale's ShardedDataParallel shape).
import torch.distributed as dist


class GradSyncWrapper:
    def __init__(self, params, group=None):
        self.group = group
        for p in params:
            p.register_hook(self._sync)
            p.register_hook(self._make_reduce(p))

    def _sync(self, grad):
        dist.all_reduce(grad, group=self.group)  # want CV102 "all_reduce .*register_hook"
        return grad

    def _make_reduce(self, p):
        def reduce(grad):
            dist.reduce(grad, 0, group=self.group)  # want CV102 "reduce .*register_hook"
            return grad

        return reduce
