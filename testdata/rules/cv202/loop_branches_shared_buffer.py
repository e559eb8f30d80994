# The same shape with one buffer for every iteration: the CPU group's
# broadcast of one iteration may still be writing it when a later
# iteration's broadcast on the device group reads it.
import torch.distributed as dist


def relay(buf, rounds, src):
    cpu_group = dist.new_group(backend="gloo")
    group = dist.new_group()
    handles = []
    for i in range(rounds):
        if i % 2:
            handle = dist.broadcast(buf, src=src, group=cpu_group, async_op=True)
        else:
            handle = dist.broadcast(buf, src=src, group=group, async_op=True)  # want CV202 "broadcast .* \"buf\""
        handles.append(handle)
    for h in handles:
        h.wait()
