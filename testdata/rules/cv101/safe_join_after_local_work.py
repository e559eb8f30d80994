# The main thread only computes on the host while the helper thread runs,
# and joins it before its own collective: the two never launch
# collectives at the same time.
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD


def balance(tasks):
    while True:
        loads = comm.allgather(len(tasks))
        if all(n == 0 for n in loads):
            return
        tasks.clear()


def run(tasks):
    t = threading.Thread(target=balance, args=(tasks,))
    t.start()
    total = sum(x * x for x in tasks)
    total += len(tasks)
    t.join()
    return comm.allreduce(total)
