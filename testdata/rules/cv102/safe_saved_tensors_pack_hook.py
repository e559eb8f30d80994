# Only the pack hook communicates: it runs in forward, on the thread that
# calls the module.
import torch
import torch.distributed as dist


def _pack(x):
    dist.all_reduce(x)
    return x


def _unpack(x):
    return x


def forward_offloaded(module, inp):
    with torch.autograd.graph.saved_tensors_hooks(_pack, _unpack):
        return module(inp)
