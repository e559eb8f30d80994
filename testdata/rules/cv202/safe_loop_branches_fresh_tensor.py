# vLLM's and xDiT's broadcast_tensor_dict: each tensor goes out on the CPU
# group or the device group, by where it lives. The two arms run in
# different iterations only, and each iteration names another tensor (the
# loop's own, or one allocated earlier in the body), so no broadcast uses
# a buffer the other group's pending work holds.
import torch
import torch.distributed as dist


def send_dict(tensors, src):
    cpu_group = dist.new_group(backend="gloo")
    group = dist.new_group()
    handles = []
    for tensor in tensors:
        if tensor.is_cpu:
            handle = dist.broadcast(tensor, src=src, group=cpu_group, async_op=True)
        else:
            handle = dist.broadcast(tensor, src=src, group=group, async_op=True)
        handles.append(handle)
    for h in handles:
        h.wait()


def recv_dict(metadata, src):
    cpu_group = dist.new_group(backend="gloo")
    group = dist.new_group()
    handles = []
    out = {}
    for key, meta in metadata:
        tensor = torch.empty(meta.size, device=meta.device)
        if tensor.is_cpu:
            handle = dist.broadcast(tensor, src=src, group=cpu_group, async_op=True)
        else:
            handle = dist.broadcast(tensor, src=src, group=group, async_op=True)
        handles.append(handle)
        out[key] = tensor
    for h in handles:
        h.wait()
    return out
