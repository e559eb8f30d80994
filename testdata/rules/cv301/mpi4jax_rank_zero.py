# mpi4jax's collectives are MPI collectives on an mpi4py communicator:
# issued by rank 0 only, the others never join.
from mpi4py import MPI
import jax.numpy as jnp
import mpi4jax

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
x = jnp.ones(4)
if rank == 0:
    y, _ = mpi4jax.allreduce(x, op=MPI.SUM, comm=comm)  # want CV301 "allreduce"
