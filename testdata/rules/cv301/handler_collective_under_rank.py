# The chunked broadcast's root, but its handler swallows the failure:
# the failure header is an extra broadcast that only the root issues,
# and it carries on.
import pickle

import numpy as np
from mpi4py import MPI


def bcast_chunked(obj, comm, root=0):
    rank = comm.Get_rank()
    header = np.zeros(3, dtype=np.int64)
    if rank == root:
        try:
            serialized = pickle.dumps(obj)
            header[:] = (1, len(serialized), 1)
        except Exception:
            header[:] = (0, 0, 0)
            comm.Bcast([header, MPI.INT64_T], root=root)  # want CV301 "rank == root"
    comm.Bcast([header, MPI.INT64_T], root=root)
    return header
