# group=None is the default group: the barrier on it completes the async
# all-gathers issued on it.
import torch.distributed as dist


def timed_all_gather(output, inp, trials):
    for _ in range(trials):
        dist.all_gather_into_tensor(output, inp, group=None, async_op=True)
    dist.barrier()
    return output.sum().item()
