# A hook defined but never registered (its register_hook line is commented
# out): what it would queue never runs on the autograd thread.
import torch.distributed as dist
from torch.autograd import Variable


class DDP:
    def __init__(self, module, group):
        self.module = module
        self.group = group

        def allreduce_params():
            for p in self.module.parameters():
                dist.all_reduce(p.grad, group=self.group)

        for param in list(self.module.parameters()):
            def allreduce_hook(*unused):
                Variable._execution_engine.queue_callback(allreduce_params)
            # param.register_hook(allreduce_hook)
        self.allreduce_params = allreduce_params


def train_step(model, loss):
    loss.backward()
    model.allreduce_params()
    dist.barrier()
