# Between start and join the main thread calls a function of the program
# (which issues a collective) or a collective itself: both threads drive
# WORLD at once.
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD


def balance(tasks):
    while True:
        loads = comm.allgather(len(tasks))  # want CV101 "allgather on the default group"
        if all(n == 0 for n in loads):
            return
        tasks.clear()


def local_sum(tasks):
    return comm.allreduce(sum(tasks))


def run(tasks):
    t = threading.Thread(target=balance, args=(tasks,))
    t.start()
    total = local_sum(tasks)
    t.join()
    return total
