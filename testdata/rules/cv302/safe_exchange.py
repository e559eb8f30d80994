# Exchanges that cannot deadlock: grouped, ordered by rank parity,
# receive-first on one side, asynchronous with both posted before waiting,
# MPI's Sendrecv, and a torch ring (NCCL runs each pair on its own stream).
import torch
import torch.distributed as dist
from mpi4py import MPI


def batched(grad, remote):
    peer = dist.get_rank() ^ 1
    ops = [dist.P2POp(dist.isend, grad, peer), dist.P2POp(dist.irecv, remote, peer)]
    for req in dist.batch_isend_irecv(ops):
        req.wait()


def by_parity(grad, remote):
    rank = dist.get_rank()
    peer = rank ^ 1
    if rank % 2 == 0:
        dist.send(grad, dst=peer)
        dist.recv(remote, src=peer)
    else:
        dist.recv(remote, src=peer)
        dist.send(grad, dst=peer)


def both_posted(a, b):
    peer = 1 - dist.get_rank()
    s = dist.isend(a, dst=peer)
    r = dist.irecv(b, src=peer)
    s.wait()
    r.wait()


def to_root(t):
    # A constant peer: only some ranks run this (the caller decides).
    dist.send(t, dst=0)
    dist.recv(t, src=0)


def mpi_sendrecv(sendbuf, recvbuf):
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    comm.Sendrecv(sendbuf, dest=(rank + 1) % size, recvbuf=recvbuf, source=(rank - 1) % size)


def torch_ring(t, buf):
    rank, world = dist.get_rank(), dist.get_world_size()
    dist.send(t, dst=(rank + 1) % world)
    dist.recv(buf, src=(rank - 1) % world)


def split_by_flag(t, buf, peer, is_sender):
    # The caller decides who sends first; the arms mirror each other.
    if is_sender:
        dist.send(t, dst=peer)
        dist.recv(buf, src=peer)
    else:
        dist.recv(buf, src=peer)
        dist.send(t, dst=peer)
