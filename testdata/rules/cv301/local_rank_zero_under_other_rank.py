# `local_rank == 0` with no global rank-0 test around it, or in the
# other arm of one: the first rank of every node issues the barrier,
# the others do not.
import os

import torch
import torch.distributed as dist


def node_leaders_sync():
    local_rank = int(os.environ["LOCAL_RANK"])
    if local_rank == 0:
        dist.barrier()  # want CV301 "local_rank == 0"


def save_on_followers(model, path):
    local_rank = int(os.environ["LOCAL_RANK"])
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), path)
    else:
        if local_rank == 0:
            dist.barrier()  # want CV301 "runs only when"
