# A topology's get_rank(pipe=…, data=…) maps coordinates to a rank
# number, the same on every process (DeepSpeed's ProcessTopology, in
# bamboo's fallback groups): the member lists new_group is called with do
# not depend on this process's rank.
import torch.distributed as dist


def make_fallback_groups(topo, dp_groups, num_stages):
    me = dist.get_rank()
    mine = {}
    for stage, ranks in enumerate(dp_groups):
        for member in ranks:
            coord = topo.get_coord(member)
            f_rank = topo.get_rank(pipe=(coord.pipe - 1) % num_stages, data=coord.data)
            f_ranks = [r if r != member else f_rank for r in ranks]
            group = dist.new_group(f_ranks)
            if me in f_ranks:
                mine[stage] = group
    return mine


def with_kwargs(topo, ranks, coord):
    f_rank = topo.get_rank(**coord._asdict())
    return dist.new_group([r if r != ranks[0] else f_rank for r in ranks])
