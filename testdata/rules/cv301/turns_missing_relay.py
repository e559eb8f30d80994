# A loop over every rank in which rank `to` gathers each rank's state by
# broadcast, but the ranks that neither send nor receive skip the
# broadcast: it is collective on the whole group, so they leave the
# others waiting.
import torch
import torch.distributed as dist


def _broadcast_object(obj, src_rank, group):
    t = torch.zeros(1)
    dist.broadcast(t, src=src_rank, group=group)
    return obj


def consolidate(state, to, group):
    rank = dist.get_rank(group)
    out = []
    for r in range(dist.get_world_size(group)):
        if rank == to:
            if r == rank:
                out.append(state)
            else:
                out.append(_broadcast_object(None, src_rank=r, group=group))  # want CV301 "r != rank"
        elif r == rank:
            _broadcast_object(state, src_rank=rank, group=group)  # want CV301 "runs only when `r == rank`"
    return out
