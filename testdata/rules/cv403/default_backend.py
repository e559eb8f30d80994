# With no backend, init_process_group makes NCCL the default group's CUDA
# backend ("cpu:gloo,cuda:nccl"): an object collective before set_device
# runs on device 0 on every rank, as with backend="nccl".
import torch
import torch.distributed as dist


def init_distributed():
    dist.init_process_group(init_method="env://")  # want CV403 "created on \"cpu:gloo,cuda:nccl\" without device_id"
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(dist.get_rank())
