import contextvars

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

_current_mesh = contextvars.ContextVar("current_mesh", default=None)


class ReplicateGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        mesh = _current_mesh.get()
        dist.all_reduce(grad, group=mesh.get_group("dp"))
        return grad


def main():
    dist.init_process_group("nccl")
    torch.autograd.set_multithreading_enabled(False)
    mesh = init_device_mesh("cuda", (dist.get_world_size() // 8, 8), mesh_dim_names=("dp", "tp"))
    _current_mesh.set(mesh)
    model = torch.nn.Linear(1024, 1024).cuda()
    for _ in range(10):
        x = torch.randn(4, 1024, device="cuda", requires_grad=True)
        loss = model(ReplicateGrad.apply(x)).sum()
        loss.backward()


if __name__ == "__main__":
    main()
