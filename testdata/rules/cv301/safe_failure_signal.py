# TensorRT-LLM's chunked MPI broadcast: when the root cannot serialise the
# object, it broadcasts a failure header, matching the header broadcast
# the others are waiting in, and raises; they read the flag and raise
# too. What a raising handler issues is the failure path's signal.
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
        except Exception as e:
            header[:] = (0, 0, 0)
            comm.Bcast([header, MPI.INT64_T], root=root)
            raise RuntimeError(f"Serialization failed: {e}") from e
    comm.Bcast([header, MPI.INT64_T], root=root)
    if not header[0]:
        raise RuntimeError("Root rank failed during serialization")
    return header
