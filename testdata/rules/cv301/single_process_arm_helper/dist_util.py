import io

import torch
import torch.distributed as dist


def load_state_dict(path, **kwargs):
    """Read on MPI rank 0 and broadcast the bytes."""
    from mpi4py import MPI
    if MPI.COMM_WORLD.Get_rank() == 0:
        with open(path, "rb") as f:
            data = f.read()
        MPI.COMM_WORLD.bcast(data)
    else:
        data = MPI.COMM_WORLD.bcast(None)
    return torch.load(io.BytesIO(data), **kwargs)


def sync_params(params):
    for p in params:
        with torch.no_grad():
            dist.broadcast(p, 0)
