# A command loop whose two roles are helpers: the learner broadcasts a
# command per step and a final stop; the actors broadcast in a loop until
# they receive the stop. Each broadcast of one role pairs with one of the
# other's.
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def learner(steps):
    for t in range(steps):
        comm.bcast(("weights", t), root=0)
    comm.bcast(("terminate", None), root=0)


def actor():
    while True:
        msg, w = comm.bcast(None, root=0)
        if msg == "terminate":
            break


def main():
    if rank == 0:
        learner(1000)
    else:
        actor()
