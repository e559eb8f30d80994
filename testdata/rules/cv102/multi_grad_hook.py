# A2 (TransformerEngine#781): amax reduction from a multi-grad hook.
import torch
import torch.distributed as dist


def install(tensors, amax, amax_group):
    torch.autograd.graph.register_multi_grad_hook(
        tensors, lambda grads: dist.all_reduce(amax, group=amax_group)  # want CV102 "register_multi_grad_hook"
    )
