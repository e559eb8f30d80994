# DeepSpeed's deepspeed.comm: every collective is wrapped by one timing
# decorator, whose wrapper calls whichever function it wraps. A backward
# that calls all_to_all_single through it runs that collective only; the
# barrier and all_reduce the main thread issues through the same wrapper
# are not reached from the backward.
import functools

import torch.distributed as torch_dist


def timed_op(func):
    @functools.wraps(func)
    def log_wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return log_wrapper


@timed_op
def all_to_all_single(output, tensor, group=None):
    return torch_dist.all_to_all_single(output, tensor, group=group)  # want CV102 "all_to_all_single .* Function.backward"


@timed_op
def barrier(group=None):
    return torch_dist.barrier(group=group)


@timed_op
def all_reduce(tensor, group=None):
    return torch_dist.all_reduce(tensor, group=group)
