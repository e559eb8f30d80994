import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP


def wrap(model):
    ddp = DDP(model)
    ddp.register_comm_hook(None, default_hooks.allreduce_hook)
    return ddp
