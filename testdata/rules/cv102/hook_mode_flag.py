# Neighbours of safe_hook_mode_flag.py that do reach the collective from
# the hook: the hook is registered in the mode that communicates, or the
# flag can change after the hooks exist.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")


class SameMode(torch.nn.Module):
    def __init__(self, module, sync=False):
        super().__init__()
        self.sync = sync
        if sync:
            for p in module.parameters():
                p.register_hook(self._hook)

    def _hook(self, grad):
        self._reduce(grad)
        return grad

    def _reduce(self, grad):
        if self.sync:
            dist.all_reduce(grad)  # want CV102 "all_reduce .*register_hook"


class Switched(torch.nn.Module):
    def __init__(self, module, overlap=False):
        super().__init__()
        self.overlap = overlap
        if not overlap:
            for p in module.parameters():
                p.register_hook(self._hook)

    def enable_overlap(self):
        self.overlap = True

    def _hook(self, grad):
        if self.overlap:
            dist.all_reduce(grad)  # want CV102 "all_reduce .*register_hook"
        return grad


class HelperCalledTwice(torch.nn.Module):
    # The helper is also called where sync may be true.
    def __init__(self, module, sync=False):
        super().__init__()
        self.module = module
        self.sync = sync
        if not sync:
            self._register_hooks()

    def enable(self):
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
            dist.all_reduce(grad)  # want CV102 "all_reduce .*register_hook"
