# A loop whose iterable may be empty skips its body: a handle made before
# it and waited only inside it is left pending on that path.
import torch.distributed as dist


def reduce_then_steps(x, group, steps):
    work = dist.all_reduce(x, group=group, async_op=True)  # want CV401 "is not waited on the path that leaves the function"
    for _ in range(steps):
        work.wait()
        x = x * 2
    return x


def from_one(x, group):
    world_size = dist.get_world_size(group)
    work = dist.broadcast(x, src=0, group=group, async_op=True)  # want CV401 "is not waited on the path that leaves the function"
    for i in range(1, world_size):
        work.wait()
    return x
