# A DDP comm hook that first checks its peers on a gloo group (a host-side
# monitored_barrier), then all-reduces the bucket on the default group:
# one device communicator, which DDP's reducer orders.
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def monitored_hook(state, bucket):
    dist.monitored_barrier(group=state["gloo_group"])
    return dist.all_reduce(bucket.buffer(), async_op=True).get_future()


def wrap(model):
    dist.init_process_group("nccl")
    gloo_group = dist.new_group(backend="gloo")
    ddp = DDP(model)
    ddp.register_comm_hook({"gloo_group": gloo_group}, monitored_hook)
    return ddp
