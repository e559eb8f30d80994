# The exchange leaves its loop once it has the messages it expects,
# whether or not the barrier it issued has completed: the request is
# never completed on that path.
import numpy as np
from mpi4py import MPI


def nbx_exchange(comm, sendbufs, expected, tag=7):
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
                barrier = comm.Ibarrier()  # want CV401 "never waited"
        elif len(recvd) == expected:
            break
    return recvd


if __name__ == "__main__":
    comm = MPI.COMM_WORLD
    r, n = comm.Get_rank(), comm.Get_size()
    out = nbx_exchange(comm, {(r + 1) % n: np.full(4, float(r))}, 1)
    print(r, sorted(out))
