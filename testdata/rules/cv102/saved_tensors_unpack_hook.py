# saved_tensors_hooks: the unpack hook runs when backward reads the saved
# tensor, on the autograd engine's thread (input resharding all-gathers
# there); the pack hook runs in forward on the calling thread.
from functools import partial

import torch
import torch.distributed as dist


def _pack(group, x):
    return x.chunk(dist.get_world_size(group))[dist.get_rank(group)].clone()


def _unpack(group, x):
    out = x.new_empty(x.numel() * dist.get_world_size(group))
    dist.all_gather_into_tensor(out, x, group=group)  # want CV102 "saved_tensors_hooks"
    return out


def forward_with_reshard(module, inp, group):
    with torch.autograd.graph.saved_tensors_hooks(partial(_pack, group), partial(_unpack, group)):
        return module(inp)
