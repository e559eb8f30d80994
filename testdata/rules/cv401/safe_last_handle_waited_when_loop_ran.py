# Muon's distributed update: each pass all-gathers its chunk
# asynchronously and waits the previous pass's; the last pass's handle is
# waited by `if params: update_prev()` after the loop. The loop runs
# exactly when params is not empty, so no path leaves a handle behind.
import torch
import torch.distributed as dist


def step(params, rank, world_size, buf, views):
    handle = None
    params_world = None

    def update_prev():
        handle.wait()
        for p_world, g_world in zip(params_world, views):
            p_world.add_(g_world.view_as(p_world), alpha=-0.02)

    for base_i in range(len(params))[::world_size]:
        if base_i + rank < len(params):
            g = params[base_i + rank].grad.flatten()
        else:
            g = views[rank]
        if base_i > 0:
            update_prev()
        handle = dist.all_gather_into_tensor(buf, g, async_op=True)
        params_world = params[base_i: base_i + world_size]
    if params:
        update_prev()


def drain(tensors):
    works = []
    for t in tensors:
        works.append(dist.all_reduce(t, async_op=True))
    if tensors:
        for w in works:
            w.wait()
