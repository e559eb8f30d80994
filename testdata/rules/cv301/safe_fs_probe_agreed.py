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
