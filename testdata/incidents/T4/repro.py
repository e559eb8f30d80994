import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()

local_count = rank * 10
result = {}


def worker():
    result["total"] = comm.allreduce(local_count)


t = threading.Thread(target=worker)
t.start()
status = comm.bcast({"epoch": 0} if rank == 0 else None, root=0)
t.join()
print(rank, result["total"], status)
