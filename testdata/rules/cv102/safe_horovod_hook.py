# Horovod's DistributedOptimizer shape: gradient hooks submit
# allreduce_async_ from the autograd engine's thread. Horovod's coordinator
# matches ops across ranks by tensor name, not by the order each rank
# issues them, so the issuing thread does not matter.
import horovod.torch as hvd


class Optimizer:
    def __init__(self, params):
        self._handles = {}
        for p in params:
            p.register_hook(self._make_hook(p))

    def _make_hook(self, p):
        def hook(grad):
            self._handles[p] = hvd.allreduce_async_(grad, name=str(id(p)))
            return grad

        return hook

    def synchronize(self):
        for p, h in self._handles.items():
            hvd.synchronize(h)
