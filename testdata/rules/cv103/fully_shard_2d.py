from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


def build(model):
    mesh = init_device_mesh("cuda", (2, 4), mesh_dim_names=("replicate", "shard"))
    fully_shard(model, mesh=mesh)  # want CV103 "2-D mesh|2 communicators"
    return model
