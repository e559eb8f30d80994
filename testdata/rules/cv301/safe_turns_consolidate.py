# ZeroRedundancyOptimizer.consolidate_state_dict's loop: in pass r, rank r
# sends, rank `to` receives and every other rank relays the broadcast; in
# the pass r == to nobody communicates. Every rank issues the same
# collectives in every pass.
import torch
import torch.distributed as dist


def _broadcast_object(obj, src_rank, group):
    t = torch.zeros(1)
    dist.broadcast(t, src=src_rank, group=group)
    return obj


class Zero:
    def __init__(self):
        self.process_group = dist.new_group()
        self.rank = dist.get_rank(self.process_group)
        self.world_size = dist.get_world_size(self.process_group)

    def consolidate(self, to, state):
        out = []
        for rank in range(self.world_size):
            if self.rank == to:
                if rank == self.rank:
                    out.append(state)
                else:
                    out.append(_broadcast_object(None, src_rank=rank, group=self.process_group))
            else:
                if rank == self.rank:
                    _broadcast_object(state, src_rank=self.rank, group=self.process_group)
                elif rank != to:
                    _broadcast_object(None, src_rank=rank, group=self.process_group)
        return out


def round_robin(x, group):
    me = dist.get_rank(group)
    for i in range(dist.get_world_size(group)):
        if i == me:
            dist.broadcast(x, src=me, group=group)
        else:
            dist.broadcast(torch.empty_like(x), src=i, group=group)
