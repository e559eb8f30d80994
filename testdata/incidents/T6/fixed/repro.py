import threading

import numpy as np
from mpi4py import MPI

provided = MPI.Init_thread(MPI.THREAD_MULTIPLE)
world = MPI.COMM_WORLD
comms = [world.Dup() for _ in range(2)]


def worker(tid, comm):
    send = np.full(16, world.Get_rank() + tid, dtype=np.float64)
    recv = np.empty_like(send)
    req = comm.Iallreduce(send, recv, op=MPI.SUM)
    req.Wait()


threads = [threading.Thread(target=worker, args=(i, comms[i])) for i in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for c in comms:
    c.Free()
