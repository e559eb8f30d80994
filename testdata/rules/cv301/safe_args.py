import torch.distributed as dist


def collect(t, obj, world):
    rank = dist.get_rank()
    lst = [t.clone() for _ in range(world)] if rank == 0 else None
    dist.gather(t, gather_list=lst if rank == 0 else None, dst=0)
    out = [None] * world if rank == 0 else None
    dist.gather_object(obj, out, dst=0)
    return out
