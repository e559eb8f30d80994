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


def driver(x, y, w, weights, convert):
    tp, ep = mpu.get_tensor_model_parallel_group(), mpu.get_expert_model_parallel_group()
    zipped_waits_fresh_lists(weights, tp, ep, convert)
    waited_through_list(x, y, tp, ep)
    fresh_buffer(w, tp, ep)
    h = returned_in_arm(x, tp, ep, True)
    if h is not None:
        h.wait()


def zipped_waits_fresh_lists(weights, tp, ep, convert):
    # ROLL's Megatron weight update: handles waited in a zip with their
    # buffers, then fresh buffer lists for the other group's gathers.
    handles, gathered = [], []
    for w in weights:
        bufs = [torch.empty_like(w) for _ in range(2)]
        gathered.append(bufs)
        handles.append(dist.all_gather(bufs, w, group=tp, async_op=True))
    for handle, bufs in zip(handles, gathered):
        if handle is not None:
            handle.wait()
        convert(bufs)
    for w in weights:
        bufs = [torch.empty_like(w) for _ in range(2)]
        dist.all_gather(bufs, w, group=ep)
