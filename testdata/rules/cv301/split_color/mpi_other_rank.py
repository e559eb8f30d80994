# The communicator is split by node, but the test reads the world rank
# too: within one node's communicator only some members take the arm.
from mpi4py import MPI
import numpy as np

world = MPI.COMM_WORLD
node = world.rank // 8
comm = world.Split(node, world.rank)
buf = np.zeros(4)
if node == 0 and world.rank % 2 == 0:
    comm.Bcast(buf, root=0)  # want CV301 "Bcast on group Split@"
if world.rank == 0:
    comm.Barrier()  # want CV301 "Barrier on group Split@"

# A variable assigned another expression than the color.
local = world.Split(world.rank % 4, world.rank)
half = world.rank % 2
if half == 1:
    local.Barrier()  # want CV301 "Barrier on group Split@"
