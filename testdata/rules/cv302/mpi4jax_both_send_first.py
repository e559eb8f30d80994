# Both ranks of a pair send first with mpi4jax's blocking Send (the
# capitalised spelling of older versions): a large message waits for a
# receive neither rank has posted.
from mpi4py import MPI
import jax.numpy as jnp
from mpi4jax import Recv, Send

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
peer = rank ^ 1
arr = jnp.ones(1 << 20)
token = Send(arr, peer, comm=comm)  # want CV302 "every rank runs this blocking send before its blocking recv"
newarr, _ = Recv(arr, peer, comm=comm, token=token)
