# The same shapes where the order does not hold: the list is waited only
# after the other group's collective; the buffer is the same tensor.
import torch
import torch.distributed as dist
from megatron.core import mpu


def waited_too_late(x, g1, g2):
    handles = []
    handles.append(dist.all_reduce(x, group=g1, async_op=True))
    dist.all_reduce(x, group=g2)  # want CV202 "uses \"x\""
    for h in handles:
        h.wait()


def same_buffer(w, g1, g2):
    buf = torch.empty_like(w)
    work = dist.all_gather_into_tensor(buf, w, group=g1, async_op=True)
    dist.all_reduce(buf, group=g2)  # want CV202 "uses \"buf\""
    work.wait()


def driver(x, w):
    tp, ep = mpu.get_tensor_model_parallel_group(), mpu.get_expert_model_parallel_group()
    waited_too_late(x, tp, ep)
    same_buffer(w, tp, ep)
