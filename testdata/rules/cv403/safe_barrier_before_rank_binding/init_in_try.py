# A barrier before a set_device of the rank's own GPU is no hazard: not
# knowing the device, ProcessGroupNCCL runs the barrier on GPU `global
# rank % GPUs per node`, the rank's local GPU wherever ranks fill the
# nodes in order (torchrun's numbering). These are the projects' own
# shapes; the unsafe CV403 fixtures of the same names issue an object
# collective (device 0 on every rank) where these have the barrier.
# YOLOX's launch and RT-DETR's init (set_device(dist.get_rank())).
import torch
import torch.distributed as dist


def worker(local_rank, url, world_size, rank):
    try:
        dist.init_process_group(backend="nccl", init_method=url, world_size=world_size, rank=rank)
    except Exception:
        print("Process group URL:", url)
        raise
    dist.barrier()
    torch.cuda.set_device(local_rank)


def worker_param(local_rank, url, backend="nccl"):
    dist.init_process_group(backend=backend, init_method=url)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def init_distributed():
    # RT-DETR's init: the whole set-up inside a try that falls back to a
    # single process; on the path that makes the group the barrier still
    # runs before set_device.
    try:
        dist.init_process_group(backend="nccl", init_method="env://")
        dist.barrier()
        torch.cuda.set_device(dist.get_rank())
        return True
    except Exception:
        print("Not init distributed mode.")
        return False
