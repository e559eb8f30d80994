# The default backend with the device bound before any collective, or
# passed as device_id, or a program that binds no device at all.
import torch
import torch.distributed as dist


def init_then_bind():
    dist.init_process_group(init_method="env://")
    torch.cuda.set_device(dist.get_rank())
    dist.barrier()


def init_with_device_id(local_rank):
    dist.init_process_group(device_id=torch.device("cuda", local_rank))
    dist.barrier()
    torch.cuda.set_device(local_rank)


def cpu_only():
    dist.init_process_group()
    dist.barrier()
