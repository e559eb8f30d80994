# Communicators split by a color that the branch's own test decides: every
# member of a color group answers the test alike, so the collective on it
# runs on all of its members or on none.
from mpi4py import MPI

world = MPI.COMM_WORLD
rank = world.rank
color = 0 if rank == 0 else 1
workers = world.Split(color, 0)

node = world.Split_type(MPI.COMM_TYPE_SHARED)
leaders = world.Split(color=node.rank)


def serve():
    if rank == 0:
        world.recv(source=MPI.ANY_SOURCE)  # the master: point-to-point only
    else:
        task = workers.bcast(None)  # every member of `workers` is here
        workers.Barrier()


def share(x):
    if node.rank == 0:
        x = leaders.bcast(x, root=0)  # the node leaders: all of `leaders`
    return node.bcast(x, root=0)
