# UniRL's FSDP backend: each rank probes the file system, the answers are
# all-gathered so that every rank decides on the same list, and only the
# single-process arm (torch.distributed not initialised) uses its own
# answer directly. Branching on the gathered answers is the same on every
# rank.
import os

import torch.distributed as dist


def load(path):
    local_visible = {"dcp": os.path.exists(os.path.join(path, ".metadata"))}
    if dist.is_available() and dist.is_initialized():
        verdicts = [None] * dist.get_world_size()
        dist.all_gather_object(verdicts, local_visible)
    else:
        verdicts = [local_visible]
    saw_dcp = [rank for rank, ok in enumerate(verdicts) if ok and ok["dcp"]]
    if saw_dcp:
        dist.barrier()


def load_negated(path):
    found = os.path.exists(path)
    if not dist.is_initialized():
        agreed = found
    else:
        box = [found]
        dist.broadcast_object_list(box, src=0)
        agreed = box[0]
    if agreed:
        dist.barrier()


def broadcast_object(obj, src_rank, group=None):
    box = [obj]
    dist.broadcast_object_list(box, src=src_rank, group=group)
    return box[0]


class Trainer:
    # Uni-Core's and fairseq's load_checkpoint: the master looks, and its
    # answer goes through the program's own broadcast helper before anyone
    # branches on it.
    def load_checkpoint(self, filename):
        is_distributed = dist.get_world_size() > 1
        is_master = dist.get_rank() == 0
        bexists = None
        if is_master:
            bexists = os.path.isfile(filename)
        if is_distributed:
            bexists = broadcast_object(bexists, src_rank=0)
        if bexists:
            state = None
            if is_distributed:
                state = broadcast_object(state, src_rank=0)
            return state
