# A load whose failure leaves its name unbound raises on the next read
# (a failure that stops the job), and a position agreed by a broadcast
# after the try is the same on every rank.
import pickle

from mpi4py import MPI

comm = MPI.COMM_WORLD


def load_checkpoint(path):
    with open(path + "/checkpoint.p", "rb") as f:
        return pickle.load(f)


def fit_unbound(results_path, end_k):
    try:
        state = load_checkpoint(results_path)
    except Exception as e:
        print(e)
    for k in range(state["k"], end_k + 1):
        comm.allreduce(float(k))


def fit_agreed(results_path, start_k, end_k):
    try:
        start_k = load_checkpoint(results_path)["k"]
    except Exception:
        pass
    start_k = comm.bcast(start_k, root=0)
    for k in range(start_k, end_k + 1):
        comm.allreduce(float(k))
