# distdl's halo exchange: the autograd Function's backward sends and
# receives the halos with mpi4py's point-to-point calls, which MPI matches
# by source, tag and communicator, whichever thread issues them.
import numpy as np
import torch
from mpi4py import MPI

comm = MPI.COMM_WORLD


class HaloExchange(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, left, right):
        ctx.left, ctx.right = left, right
        return x

    @staticmethod
    def backward(ctx, grad):
        g = grad.detach().numpy()
        buf = np.empty_like(g)
        reqs = [comm.Isend(g, dest=ctx.left, tag=1), comm.Irecv(buf, source=ctx.right, tag=1)]
        MPI.Request.Waitall(reqs)
        return torch.from_numpy(buf), None, None


def step(x, left, right):
    HaloExchange.apply(x, left, right).sum().backward()
