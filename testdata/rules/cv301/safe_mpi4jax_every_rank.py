# Every rank all-reduces; only the printing is rank 0's.
from mpi4py import MPI
import jax.numpy as jnp
import mpi4jax

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
x = jnp.ones(4)
y, _ = mpi4jax.allreduce(x, op=MPI.SUM, comm=comm)
if rank == 0:
    print(y)
