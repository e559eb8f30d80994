# Roots computed from the rank on the default group: each rank names a
# different one.
import os

import torch
import torch.distributed as dist
from mpi4py import MPI


def sync_params(model, args):
    for p in model.parameters():
        dist.broadcast(p.data, src=args.local_rank)  # want CV303 "takes its src from `args.local_rank`"


def share(t):
    dist.broadcast(t, dist.get_rank() % 8)  # want CV303 "broadcast on the default group"


def collect(t):
    local_rank = int(os.environ["LOCAL_RANK"])
    out = [torch.zeros_like(t) for _ in range(dist.get_world_size())]
    dist.gather(t, out, dst=local_rank)  # want CV303 "takes its dst from `local_rank`"


def node_leader_config(cfg):
    rank = dist.get_rank()
    leader = rank - rank % 8
    box = [cfg]
    dist.broadcast_object_list(box, src=leader)  # want CV303 "differs between ranks"
    return box[0]


def mpi_config(cfg):
    comm = MPI.COMM_WORLD
    local = int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])
    return comm.bcast(cfg, root=local)  # want CV303 "takes its root from"


def from_own_group_rank(t, pg):
    # The global rank of this rank's own place in the group.
    src = dist.get_global_rank(pg, dist.get_group_rank(pg, dist.get_rank()))
    dist.broadcast(t, src=src)  # want CV303 "takes its src from `src`"
