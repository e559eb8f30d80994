import torch
import torch.distributed as dist


def all_gather_async(t, group, async_op=True):
    world = dist.get_world_size(group)
    out = torch.empty((world * t.shape[0],) + tuple(t.shape[1:]), dtype=t.dtype, device=t.device)
    handle = dist.all_gather_into_tensor(out, t, group=group, async_op=async_op)
    return out, handle


def forward_indexer(kv, k_li, k_sc, tp_group):
    handles = []
    kv, h = all_gather_async(kv, tp_group, async_op=True)
    handles.append(h)
    k_li, h = all_gather_async(k_li, tp_group, async_op=True)
    handles.append(h)
    k_sc, h = all_gather_async(k_sc, tp_group, async_op=True)
    handles.append(h)
    for h in handles:
        h.wait()
    return torch.cat([kv, k_li], dim=-1) * k_sc
