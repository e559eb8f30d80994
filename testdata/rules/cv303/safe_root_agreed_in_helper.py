# dolfinx_mpc's shape: the helper's local starts as the rank, but a bcast
# replaces it before it is returned in a tuple; the root every rank
# passes is the same.
from mpi4py import MPI


def pick():
    owner = MPI.COMM_WORLD.rank
    owner = MPI.COMM_WORLD.bcast(owner, root=0)
    return owner, []


def pick_via_copy(r):
    owner = r
    best = MPI.COMM_WORLD.rank
    best = MPI.COMM_WORLD.bcast(best, root=0)
    if owner != best:
        owner = best
    return owner, []


def run(r):
    proc, blocks = pick()
    first = MPI.COMM_WORLD.bcast(len(blocks), root=proc)
    proc, blocks = pick_via_copy(r)
    return first + MPI.COMM_WORLD.bcast(len(blocks), root=proc)
