# A command loop with a handshake before it and a reply to each command:
# the learner and the actors both broadcast the first weights, then each
# command is a broadcast the actors answer with a gather; the learner
# alone decides when to stop (a deadline) and broadcasts the stop.
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def main():
    if rank == 0:
        comm.bcast(("weights", 0), root=0)
        start = time.time()
        for t in range(1000):
            if time.time() - start > 40:
                break
            comm.bcast(("weights", t), root=0)
            comm.gather(None, root=0)
        comm.bcast(("terminate", None), root=0)
    else:
        w = comm.bcast(None, root=0)
        while True:
            msg, w = comm.bcast(None, root=0)
            if msg == "terminate":
                break
            comm.gather([1], root=0)
