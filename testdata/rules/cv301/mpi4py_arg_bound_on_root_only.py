# Only rank 0 binds the state it loaded; every rank then hands it to the
# broadcast. The other ranks raise UnboundLocalError evaluating the
# argument, and an uncaught exception does not end an mpi4py job, so rank
# 0 waits in bcast forever (DarrellDai/Distributed-RL's learner resume).
import torch
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def resume(models, path):
    if comm.Get_rank() == 0:
        state = torch.load(path)
    for k in models:
        models[k].load_state_dict(comm.bcast(state[k]))  # want CV301 "UnboundLocalError"


def share_config():
    if rank == 0:
        cfg = {"lr": 0.1}
    cfg = comm.bcast(cfg, root=0)  # want CV301 "reads `cfg`"
    return cfg


def total_on_root():
    if rank != 0:
        pass
    else:
        u = 5
    return comm.allreduce(u)  # want CV301 "UnboundLocalError"
