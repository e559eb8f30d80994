# A wrapper that registers its gradient hooks only when it does not
# synchronise, and communicates in the shared helper only when it does
# (TorchDistPackage's NaiveDDP shape): the hook never reaches the
# all_reduce, which runs from reduce_gradients on the main thread.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")


class Wrap(torch.nn.Module):
    def __init__(self, module, sync=False):
        super().__init__()
        self.module = module
        self.sync = sync
        self.pending = []
        if not sync:
            for p in module.parameters():
                p.register_hook(self._hook)

    def _hook(self, grad):
        self._reduce(grad)
        return grad

    def _reduce(self, grad):
        if self.sync:
            dist.all_reduce(grad)
        else:
            self.pending.append(grad)

    def reduce_gradients(self):
        if self.sync:
            for p in self.module.parameters():
                self._reduce(p.grad)


class WrapByHelper(torch.nn.Module):
    # NaiveDDP's own shape: the hooks are closures a method makes, and a
    # helper method registers them, called only where sync is false.
    def __init__(self, module, sync=False):
        super().__init__()
        self.module = module
        self.sync = sync
        if not sync and dist.get_world_size() > 1:
            self._register_hooks()

    def _register_hooks(self):
        for name, p in self.module.named_parameters():
            p.register_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(grad):
            self._reduce(grad)
            return grad

        return hook

    def _reduce(self, grad):
        if self.sync:
            dist.all_reduce(grad)
