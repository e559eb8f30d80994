# Three orderings that do hold: the handles filed in a list and waited
# element by element; the buffer name bound to a fresh tensor before the
# other group's collective; an async collective in an arm that returns.
import torch
import torch.distributed as dist
from megatron.core import mpu


def waited_through_list(x, y, g1, g2):
    handles = []
    handles.append(dist.all_reduce(x, group=g1, async_op=True))
    handles.append(dist.all_reduce(y, group=g1, async_op=True))
    for h in handles:
        h.wait()
    dist.all_reduce(x, group=g2)


def fresh_buffer(w, g1, g2):
    buf = torch.empty_like(w)
    work = dist.all_gather_into_tensor(buf, w, group=g1, async_op=True)
    buf = torch.empty_like(w)
    dist.all_gather_into_tensor(buf, w, group=g2)
    work.wait()


def returned_in_arm(x, g1, g2, fused):
    if fused:
        work = dist.all_reduce(x, group=g1, async_op=True)
        return work
    dist.all_reduce(x, group=g2)
    return None


def driver(x, y, w):
    tp, ep = mpu.get_tensor_model_parallel_group(), mpu.get_expert_model_parallel_group()
    waited_through_list(x, y, tp, ep)
    fresh_buffer(w, tp, ep)
    h = returned_in_arm(x, tp, ep, True)
    if h is not None:
        h.wait()
