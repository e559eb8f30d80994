# A collective on a communicator split by a color, under a test that
# depends on the rank only through that color: every member of the
# communicator has the same color, so all of them take the arm or none.
from mpi4py import MPI
import numpy as np

world = MPI.COMM_WORLD
node = world.rank // 8
comm = world.Split(node, world.rank)
buf = np.zeros(4)
if node == 0:
    comm.Bcast(buf, root=0)

# The color spelled as an expression, and the test reading a variable
# assigned that expression.
local = world.Split(world.rank % 4, world.rank)
lr = world.rank % 4
if lr == 1:
    local.Barrier()
