# fairscale's ShardedGradScaler: "the calls are executed in sequence,
# waiting for the last one is enough". Collectives on one device
# communicator run on its stream in issue order, so waiting the last
# work waits them all. (Its v_on_cuda.cpu() before the wait is in
# read_before_wait.py.)
import torch.distributed as dist


def sync_found_inf(found_inf_per_device, group):
    last_handle = None
    for v in found_inf_per_device.values():
        if v.device.type == "cpu":
            v_on_cuda = v.cuda()
            last_handle = dist.all_reduce(v_on_cuda, async_op=True, group=group)
        else:
            last_handle = dist.all_reduce(v, async_op=True, group=group)
    if last_handle is not None:
        last_handle.wait()


def reduce_all(tensors):
    for t in tensors:
        work = dist.all_reduce(t, async_op=True)
    work.wait()


def one_group_indexed_by_constant(bufs, in_edges, groups, rank):
    # The group does not change between passes: one stream, in order.
    for src in in_edges:
        work = dist.broadcast(bufs[src], src=src, group=groups[rank], async_op=True)
    work.wait()


def list_kept_across_passes(bufs, in_edges, groups):
    # The list is made once, so it keeps every pass's handle.
    in_reqs = []
    for src in in_edges:
        in_reqs.append(dist.broadcast(bufs[src], src=src, group=groups[src], async_op=True))
    return in_reqs


def list_waited_before_rebinding(bufs, in_edges, groups):
    # Each pass waits the previous pass's handles before it rebinds the list.
    reqs = []
    for src in in_edges:
        for r in reqs:
            r.wait()
        reqs = []
        reqs.append(dist.broadcast(bufs[src], src=src, group=groups[src], async_op=True))
    for r in reqs:
        r.wait()
