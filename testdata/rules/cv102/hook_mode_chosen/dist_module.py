# A wrapper that reduces gradients from accumulator hooks only when
# sync=False; otherwise the caller syncs them after backward.
import torch
import torch.distributed as link


class DistModule(torch.nn.Module):
    def __init__(self, module, sync=True):
        super(DistModule, self).__init__()
        self.module = module
        self.broadcast_params()
        self.sync = sync
        if not sync:
            self._grad_accs = []
            self._register_hooks()

    def _register_hooks(self):
        for i, (name, p) in enumerate(self.module.named_parameters()):
            if p.requires_grad:
                p_tmp = p.expand_as(p)
                grad_acc = p_tmp.grad_fn.next_functions[0][0]
                grad_acc.register_hook(self._make_hook(name, p, i))
                self._grad_accs.append(grad_acc)

    def _make_hook(self, name, p, i):

        def hook(*ignore):
            link.all_reduce(p.grad.data)  # want CV102 "register_hook"

        return hook

    def sync_gradients(self):
        if self.sync and link.get_world_size() > 1:
            for name, param in self.module.named_parameters():
                if param.requires_grad and param.grad is not None:
                    link.all_reduce(param.grad.data)
        else:
            torch.cuda.synchronize()

    def broadcast_params(self):
        for name, param in self.module.state_dict().items():
            link.broadcast(param, 0)
