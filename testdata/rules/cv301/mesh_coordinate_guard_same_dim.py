# A test of the rank's coordinate along a device mesh's first dimension
# guards a gather on that same dimension's group: its members have
# different coordinates there, so some of them leave
# (safe_mesh_coordinate_guard_other_dim.py gathers along the other one).
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

mesh = init_device_mesh("cuda", (2, 2), mesh_dim_names=("dp", "tp"))


def save_sharded(shard: torch.Tensor):
    if mesh.get_local_rank(0) != 0:
        return False
    out = [None] * mesh.shape[0]
    dist.all_gather_object(out, shard.cpu(), group=mesh.get_group(0))  # want CV301 "all_gather_object on .* runs only on the ranks that do not leave early .*mesh.get_local_rank\(0\) != 0"
    return True


def save_named(shard: torch.Tensor):
    if mesh.get_local_rank("dp") != 0:
        return False
    out = [None] * mesh.shape[0]
    dist.all_gather_object(out, shard.cpu(), group=mesh.get_group(mesh_dim="dp"))  # want CV301 "all_gather_object on .* runs only on the ranks that do not leave early"
    return True


def gather_sliced(url, tp_size):
    # The mesh sliced by name: the dp leaders gather over the dp group,
    # whose other members never arrive.
    world = dist.get_world_size()
    sub = init_device_mesh("cuda", (world // tp_size, tp_size), mesh_dim_names=("dp", "tp"))
    if sub["dp"].get_local_rank() == 0:
        out = [None] * sub["dp"].size()
        dist.gather_object(url, out, group_dst=0, group=sub["dp"].get_group())  # want CV301 "sub\[\"dp\"\].get_local_rank\(\) == 0"
