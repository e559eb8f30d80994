# The actors answer each command with a gather the learner never issues:
# the learner's next broadcast meets the actors' gather.
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def main():
    if rank == 0:
        for t in range(1000):
            comm.bcast(("weights", t), root=0)
        comm.bcast(("terminate", None), root=0)  # want CV301 "bcast"
    else:
        while True:
            msg, w = comm.bcast(None, root=0)
            if msg == "terminate":
                break
            comm.gather([1], root=0)
