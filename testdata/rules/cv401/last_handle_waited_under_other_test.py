# The same loop with the last wait under a test that is not the loop's
# collection: where `final` is false the last pass's all-gather is left
# running.
import torch.distributed as dist


def step(params, rank, world_size, buf, final):
    handle = None
    for base_i in range(len(params))[::world_size]:
        if handle is not None:
            handle.wait()
        handle = dist.all_gather_into_tensor(buf, params[min(base_i + rank, len(params) - 1)].grad, async_op=True)  # want CV401 "all_gather_into_tensor"
    if final:
        handle.wait()
