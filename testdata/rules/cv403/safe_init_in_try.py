# The device is bound before the group is made, inside or outside the
# try; a parameter whose default is gloo makes a host group.
import torch
import torch.distributed as dist


def worker(local_rank, url):
    torch.cuda.set_device(local_rank)
    try:
        dist.init_process_group(backend="nccl", init_method=url)
    except Exception:
        raise
    dist.barrier()


def worker_gloo(local_rank, url, backend="gloo"):
    dist.init_process_group(backend=backend, init_method=url)
    dist.barrier()
    torch.cuda.set_device(local_rank)


def init_distributed_bound_first():
    try:
        dist.init_process_group(backend="nccl", init_method="env://")
        torch.cuda.set_device(dist.get_rank())
        dist.barrier()
        return True
    except Exception:
        return False
