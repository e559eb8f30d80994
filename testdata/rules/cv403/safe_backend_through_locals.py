# Dicts and names that do not settle the backend, or that pass device_id:
# nothing to report.
import torch
import torch.distributed as dist


def kwargs_with_device_id(local_rank):
    kwargs = {"backend": "nccl", "device_id": torch.device("cuda", local_rank)}
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def kwargs_extended(local_rank, device):
    kwargs = {"backend": "nccl"}
    kwargs["device_id"] = device
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def kwargs_updated(local_rank, extra):
    kwargs = dict(backend="nccl")
    kwargs.update(extra)
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def kwargs_merged(local_rank, extra):
    kwargs = {"backend": "nccl", **extra}
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def kwargs_from_elsewhere(local_rank, cfg):
    kwargs = cfg.init_kwargs()
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def name_rebound(local_rank, use_gloo):
    backend = "nccl"
    if use_gloo:
        backend = "gloo"
    dist.init_process_group(backend)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def gloo_kwargs(local_rank):
    kwargs = {"backend": "gloo"}
    dist.init_process_group(**kwargs)
    dist.barrier()
    torch.cuda.set_device(local_rank)
