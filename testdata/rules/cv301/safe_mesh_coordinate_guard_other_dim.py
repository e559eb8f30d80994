# The ranks whose coordinate along the mesh's first dimension is not 0
# leave after their one barrier; the gather that follows is on the
# second dimension's group, whose members share the first coordinate, so
# none of its members left. Every rank then reaches exactly one world
# barrier: the leavers at once, the others on rank 0's side or after the
# save (sparsify's save_sharded).
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

mesh = init_device_mesh("cuda", (2, 2), mesh_dim_names=("dp", "tp"))


def save_sharded(shard: torch.Tensor):
    if mesh.get_local_rank(0) != 0:
        dist.barrier()
        return False
    out = [None] * mesh.shape[1] if dist.get_rank() == 0 else None
    dist.gather_object(shard.cpu(), out, dst=0, group=mesh.get_group(1))
    if dist.get_rank() != 0:
        dist.barrier()
        return False
    torch.save(out, "full.pt")
    dist.barrier()
    return True


def save_named(shard: torch.Tensor):
    if mesh.get_local_rank("dp") != 0:
        return False
    out = [None] * mesh.shape[1]
    dist.all_gather_object(out, shard.cpu(), group=mesh.get_group("tp"))
    return True


def tp_leaders_gather(tp_size, url):
    # RL2's rollout: the tensor-parallel leaders gather their servers'
    # addresses over their data-parallel group, whose members all share
    # that tp coordinate (the mesh sliced by dimension name).
    world = dist.get_world_size()
    mesh = init_device_mesh("cuda", (world // tp_size, tp_size), mesh_dim_names=("dp", "tp"))
    urls = None
    if mesh["tp"].get_local_rank() == 0:
        urls = [None] * mesh["dp"].size() if mesh["dp"].get_local_rank() == 0 else None
        dist.gather_object(url, urls, group_dst=0, group=mesh["dp"].get_group())
    return urls
