# Hand-written DDP hooks the gradient accumulator, a node of the autograd
# graph, not the tensor: the message names Node.register_hook.
import torch.distributed as dist


def attach(params):
    hooks = []
    for p in params:
        grad_acc = p.expand_as(p).grad_fn.next_functions[0][0]

        def hook(*unused, p=p):
            dist.all_reduce(p.grad)  # want CV102 "registered with Node.register_hook"

        grad_acc.register_hook(hook)
        hooks.append(grad_acc)
    return hooks
