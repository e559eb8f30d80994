# Rank getters the program writes itself: one that returns the mesh's
# local rank from the mesh it is passed, and one that keeps the answer in
# a global (dolomite-engine's ProcessGroupManager). A collective on the
# default group behind either runs on one pipeline stage only.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

_MESH = None
_PIPELINE_PARALLEL_RANK = None


def get_pp_rank(mesh):
    return mesh["pp"].get_local_rank()


def get_pipeline_parallel_rank():
    global _PIPELINE_PARALLEL_RANK
    if _PIPELINE_PARALLEL_RANK is None:
        _PIPELINE_PARALLEL_RANK = _MESH["pp"].get_local_rank()
    return _PIPELINE_PARALLEL_RANK


def get_mesh_size(mesh):
    # The size of a dimension is the same on every rank.
    return mesh["pp"].size()


def main():
    global _MESH
    dist.init_process_group("nccl")
    _MESH = init_device_mesh("cuda", (2, 4), mesh_dim_names=("pp", "dp"))
    t = torch.ones(1, device="cuda")
    if get_pp_rank(_MESH) == 1:
        dist.all_reduce(t)  # want CV301 "get_pp_rank\(_MESH\) == 1"
    if get_pipeline_parallel_rank() == 1:
        dist.all_reduce(t)  # want CV301 "get_pipeline_parallel_rank\(\) == 1"
    if get_mesh_size(_MESH) > 1:
        dist.all_reduce(t)
