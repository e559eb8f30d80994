# A resume position read in a try whose handler swallows any exception:
# a host that cannot open the checkpoint (written by rank 0 on its own
# node) keeps the configured start, and the hosts run different numbers
# of passes (pyDNMFk's search over k).
import pickle

from mpi4py import MPI

comm = MPI.COMM_WORLD


def load_checkpoint(path):
    with open(path + "/checkpoint.p", "rb") as f:
        return pickle.load(f)


def fit(results_path, start_k, end_k):
    try:
        start_k = load_checkpoint(results_path)["k"]
    except Exception:
        pass
    for k in range(start_k, end_k + 1):
        comm.allreduce(float(k))  # want CV301 "file system check"
