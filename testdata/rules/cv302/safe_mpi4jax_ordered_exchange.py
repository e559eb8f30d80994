# The pair ordered by rank: the even rank sends first, the odd one
# receives first (mpi4jax's own test of this exchange).
from mpi4py import MPI
import jax.numpy as jnp
from mpi4jax import recv, send

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
peer = rank ^ 1
arr = jnp.ones(1 << 20)
if rank % 2 == 0:
    token = send(arr, peer, comm=comm)
    newarr, _ = recv(arr, peer, comm=comm, token=token)
else:
    newarr, token = recv(arr, peer, comm=comm)
    send(arr, peer, comm=comm, token=token)
