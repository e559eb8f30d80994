# guided-diffusion's loader: rank 0 reads the file and broadcasts the
# bytes over MPI, so every rank must call it (guided-diffusion#23, #68).
import io

import torch as th
from mpi4py import MPI


def load_state_dict(path, **kwargs):
    if MPI.COMM_WORLD.Get_rank() == 0:
        with open(path, "rb") as f:
            data = f.read()
    else:
        data = None
    data = MPI.COMM_WORLD.bcast(data)
    return th.load(io.BytesIO(data), **kwargs)
