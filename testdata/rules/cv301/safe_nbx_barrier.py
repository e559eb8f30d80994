# The NBX sparse exchange (devito's transport): each rank polls for
# messages and issues its non-blocking barrier once its own sends are
# done. The barrier is bound only where it is None, and the loop ends
# only after it completed, so every rank issues it exactly once, each at
# its own moment: the polling test decides when, not whether.
import numpy as np
from mpi4py import MPI


def nbx_exchange(comm, sendbufs, tag=7):
    rank = comm.Get_rank()
    sends = []
    for peer, buf in sendbufs.items():
        if peer != rank:
            sends.append(comm.Issend([buf, MPI.DOUBLE], dest=peer, tag=tag))
    recvd = {}
    barrier = None
    status = MPI.Status()
    while True:
        if comm.Iprobe(source=MPI.ANY_SOURCE, tag=tag, status=status):
            src = status.Get_source()
            buf = np.empty(status.Get_count(MPI.DOUBLE))
            comm.Recv([buf, MPI.DOUBLE], source=src, tag=tag)
            recvd[src] = buf
        elif barrier is None:
            if MPI.Request.Testall(sends):
                barrier = comm.Ibarrier()
        elif barrier.Test():
            break
    return recvd


if __name__ == "__main__":
    comm = MPI.COMM_WORLD
    r, n = comm.Get_rank(), comm.Get_size()
    out = nbx_exchange(comm, {(r + 1) % n: np.full(4, float(r))})
