# O5 (NVIDIA/nccl#479, pytorch/pytorch#109401): every rank sends, then
# receives. Above the eager limit each send waits for the peer's receive,
# which the peer reaches only after its own send.
import torch
import torch.distributed as dist
from mpi4py import MPI


def swap_halves(grad, remote):
    rank = dist.get_rank()
    peer = rank ^ 1
    dist.send(grad, dst=peer)  # want CV302 "blocking send before its blocking recv, to and from the same peer \(`peer`\)"
    dist.recv(remote, src=peer)


def steady_state(act, grad_buf, peer, group):
    # O4: the pipeline's partner arrives as a parameter.
    dist.send(act, dst=peer, group=group)  # want CV302 "same peer"
    dist.recv(grad_buf, src=peer, group=group)
    return grad_buf


def waited_at_once(a, b):
    peer = 1 - dist.get_rank()
    for _ in range(10):
        s = dist.isend(a, dst=peer)  # want CV302 "isend \(waited at once\) before its irecv \(waited at once\)"
        s.wait()
        r = dist.irecv(b, src=peer)
        r.wait()


def mpi_ring(sendbuf, recvbuf):
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    comm.Send(sendbuf, dest=(rank + 1) % size)  # want CV302 "in a ring"
    comm.Recv(recvbuf, source=(rank - 1) % size)


def mpi_objects(obj):
    comm = MPI.COMM_WORLD
    peer = comm.Get_rank() ^ 1
    comm.send(obj, dest=peer)  # want CV302 "Comm.send before its blocking Comm.recv"
    return comm.recv(source=peer)
