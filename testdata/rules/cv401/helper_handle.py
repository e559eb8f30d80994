# A helper that starts an async collective hands its handle back to the
# caller, whose job the wait then is (U1: vllm-ascend dropped the handles
# of two of three async all-gathers and waited only the last).
import torch
import torch.distributed as dist


def all_gather_async(t, group, async_op=False):
    out = torch.empty(t.numel() * dist.get_world_size(group), dtype=t.dtype, device=t.device)
    handle = dist.all_gather_into_tensor(out, t, group=group, async_op=async_op)
    return out, handle


def send_async(t, dst):
    req = dist.isend(t, dst)
    return req


def step(kv, k_li, k_sc, tp_group):
    kv, _ = all_gather_async(kv, tp_group, async_op=True)  # want CV401 "the work handle of the all_gather_into_tensor that all_gather_async returns is discarded"
    k_li, _ = all_gather_async(k_li, tp_group, async_op=True)  # want CV401 "is discarded"
    k_sc, hdl = all_gather_async(k_sc, tp_group, async_op=True)
    hdl.wait()
    return kv + k_li + k_sc


def forgotten(x, group):
    y, h = all_gather_async(x, group, async_op=True)  # want CV401 "\"h\", the work handle of the all_gather_into_tensor that all_gather_async returns, is never waited"
    return y * 2


def fire_and_forget(t):
    send_async(t, 1)  # want CV401 "the work handle of the isend that send_async returns is discarded"
