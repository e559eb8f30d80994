# The backend reaches init_process_group through a local name or through a
# dict of keyword arguments the function builds once.
import torch
import torch.distributed as dist


def kwargs_display(local_rank):
    kwargs = {"backend": "nccl", "init_method": "env://"}
    dist.init_process_group(**kwargs)  # want CV403 "\"nccl\" without device_id"
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(local_rank)


def kwargs_dict_call(local_rank):
    init_kwargs = dict(backend="xccl", timeout=None)
    dist.init_process_group(**init_kwargs)  # want CV403 "oneCCL"
    torch.xpu.set_device(local_rank)


def local_name(local_rank):
    backend = "nccl"
    dist.init_process_group(backend)  # want CV403 "broadcast_object_list at"
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(local_rank)
