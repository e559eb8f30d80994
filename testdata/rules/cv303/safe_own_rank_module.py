# The host process of a role-split program (TGL's host.py): a module-level
# name, misleadingly called local_rank, holds the process's own global
# rank, and the host broadcasts as the root; the trainers name the host's
# rank in their own module.
import torch
import torch.distributed as dist

local_rank = dist.get_rank()
state_buf = torch.empty(1, dtype=torch.int32)


def finish():
    state_buf.fill_(-1)
    dist.broadcast(state_buf, src=local_rank)


def announce(step):
    me = local_rank
    state_buf.fill_(step)
    dist.broadcast(state_buf, src=me)
