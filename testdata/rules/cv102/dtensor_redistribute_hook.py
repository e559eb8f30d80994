# A gradient hook that redistributes a DTensor gradient: the collectives
# redistribute issues run on the autograd engine's thread.
import torch
from torch.distributed.tensor import Replicate


def install(param, mesh):
    def hook(grad):
        return grad.redistribute(mesh, [Replicate()])  # want CV102 "DTensor.redistribute"

    param.register_hook(hook)
