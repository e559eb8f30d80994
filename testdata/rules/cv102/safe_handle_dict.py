# DeepSpeed's sequence-parallel overlap shape: one dict, with computed
# keys, holds the async all-to-all's work handle, a post-processing
# function and a buffer. The backward hook waits the handle and calls the
# function it reads from the dict: the handle is what the collective
# returned, not the collective, so the hook issues no collective.
import torch.distributed as dist


def post_all2all(x):
    return x.reshape(-1)


class Layer:
    def __init__(self, group):
        self.group = group
        self.handles = {}

    def forward(self, x, grad_out, kind):
        work = dist.all_to_all_single(grad_out, x, group=self.group, async_op=True)
        self.handles[kind + "_work"] = work
        self.handles[kind + "_post"] = post_all2all
        self.handles[kind + "_grad"] = grad_out

        def hook(grad):
            self.handles[kind + "_work"].wait()
            return self.handles[kind + "_post"](self.handles[kind + "_grad"])

        x.register_hook(hook)
        return x
