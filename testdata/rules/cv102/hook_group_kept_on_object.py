# A hand-written DDP's gradient hook all-reduces on the group kept on the
# object its helpers are handed, the group the main thread broadcasts
# buffers on in forward: one communicator, so the finding is the
# one-communicator warning, not the two-communicator error.
import torch
import torch.distributed as dist


def all_reduce(t, handle, async_op=False):
    return dist.all_reduce(t, group=handle.process_group, async_op=async_op)  # want CV102 "the main thread communicates on `handle.process_group` too, one communicator"


def broadcast(t, handle):
    dist.broadcast(t, src=handle.ranks[0], group=handle.process_group)


class MyDDP(torch.nn.Module):
    def __init__(self, module, handle):
        super().__init__()
        self.module, self.handle, self.works = module, handle, []
        for p in module.parameters():
            broadcast(p.data, self.handle)
            p.register_post_accumulate_grad_hook(self._on_grad_ready)

    def forward(self, x):
        for b in self.module.buffers():
            broadcast(b, self.handle)
        return self.module(x)

    def _on_grad_ready(self, p):
        self.works.append(all_reduce(p.grad, self.handle, async_op=True))
