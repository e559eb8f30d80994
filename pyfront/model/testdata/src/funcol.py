# Functional collectives (DTensor's) take a one-dimensional DeviceMesh or
# a (mesh, dim) pair as their group.
import torch.distributed._functional_collectives as funcol
from torch.distributed.device_mesh import init_device_mesh


def step(t, mesh, mesh2d):
    a = funcol.all_reduce(t, "sum", group=mesh)  # group: mesh@M
    b = funcol.all_gather_tensor(t, gather_dim=0, group=(mesh2d, 1))  # group: mesh@N
    c = funcol.all_gather_tensor(t, gather_dim=0, group=mesh2d)  # group: unknown
    return a, b, c


def main(t):
    mesh = init_device_mesh("cuda", (8,))  # alloc: M
    mesh2d = init_device_mesh("cuda", (2, 4), mesh_dim_names=("dp", "tp"))  # alloc: N
    step(t, mesh, mesh2d)
