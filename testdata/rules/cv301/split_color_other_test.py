# The split's color is not the branch's test (safe_split_color_from_test.py
# splits by it): members of one color group take different arms.
from mpi4py import MPI

world = MPI.COMM_WORLD
rank = world.rank
halves = world.Split(rank % 2, 0)

node = world.Split_type(MPI.COMM_TYPE_SHARED)
leaders = world.Split(color=node.rank)


def serve():
    if rank == 0:
        world.recv(source=MPI.ANY_SOURCE)
    else:
        task = halves.bcast(None)  # want CV301 "bcast on group Split@"


def share(x):
    if world.rank == 0:
        x = leaders.bcast(x, root=0)  # want CV301 "bcast on group Split@"
    return x
