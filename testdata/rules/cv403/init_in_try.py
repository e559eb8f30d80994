# The group is made inside a try that reports the URL and re-raises
# (YOLOX's launch); the collective after it still runs before set_device.
import torch
import torch.distributed as dist


def worker(local_rank, url, world_size, rank):
    try:
        dist.init_process_group(backend="nccl", init_method=url, world_size=world_size, rank=rank)  # want CV403 "broadcast_object_list at .* runs before it"
    except Exception:
        print("Process group URL:", url)
        raise
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(local_rank)


def worker_param(local_rank, url, backend="nccl"):
    dist.init_process_group(backend=backend, init_method=url)  # want CV403 "broadcast_object_list at .* runs before it"
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(local_rank)


def init_distributed():
    # RT-DETR's init: the whole set-up inside a try that falls back to a
    # single process; on the path that makes the group the collective still
    # runs before set_device.
    try:
        dist.init_process_group(backend="nccl", init_method="env://")  # want CV403 "broadcast_object_list at .* runs before it"
        dist.broadcast_object_list([None], src=0)
        torch.cuda.set_device(dist.get_rank())
        return True
    except Exception:
        print("Not init distributed mode.")
        return False
