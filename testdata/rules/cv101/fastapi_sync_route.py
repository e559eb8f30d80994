# A FastAPI route written as a plain def runs on the server's worker thread
# pool, several requests at once: rank 0 issues the broadcasts of two
# requests from two threads while the other ranks receive one at a time.
from fastapi import FastAPI
from mpi4py import MPI

comm = MPI.COMM_WORLD
app = FastAPI()


@app.put("/generate")
def generate(request: dict):
    return comm.bcast(request, root=0)  # want CV101 "bcast on the default group \(WORLD\) is issued from a pool worker"


def worker_loop():
    while True:
        comm.bcast(None, root=0)
