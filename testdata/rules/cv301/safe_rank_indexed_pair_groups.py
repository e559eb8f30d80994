# Each rank talks to its neighbours through the group of each adjacent
# pair, picked out of a list by its own rank; the test only keeps the
# index in range, so the ranks that skip a call are not members of the
# group it names (Video-Infinity's context exchange).
import torch
import torch.distributed as dist


class Exchange:
    def __init__(self):
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        self.adj_groups = [dist.new_group([i, i + 1]) for i in range(self.world - 1)]

    def pad(self, h):
        left = right = torch.zeros_like(h[:1])
        if self.rank:
            buf = [torch.zeros_like(h[:1]) for _ in range(2)]
            dist.all_gather(buf, h[:1].contiguous(), group=self.adj_groups[self.rank - 1])
            left = buf[0]
        if self.rank != self.world - 1:
            buf = [torch.zeros_like(h[-1:]) for _ in range(2)]
            dist.all_gather(buf, h[-1:].contiguous(), group=self.adj_groups[self.rank])
            right = buf[1]
        return torch.cat([left, h, right])


def ring_pass(x, groups, rank, world):
    if rank < world - 1:
        dist.broadcast(x, src=rank, group=groups[rank])
    if rank > 0:
        dist.broadcast(x, src=rank - 1, group=groups[rank - 1])
    return x
