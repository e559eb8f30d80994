from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


def build(model):
    mesh = init_device_mesh("cuda", (8,))
    fully_shard(model, mesh=mesh)
    return model
