# apex's DistributedFusedLAMB: the reduce-scatter groups and the
# all-reduce groups are made by one loop variable (grp) and kept in two
# lists; each list's collectives run on that list's own streams. The
# analysis cannot tell the groups apart, the lists' names can.
import torch
import torch.distributed as dist


class Lamb:
    def __init__(self, group_size, num_groups, n_pg):
        rank = dist.get_rank()
        self._ar_pg = []
        for dev in range(group_size):
            ranks = [dev + j * group_size for j in range(num_groups)]
            for _ in range(n_pg):
                grp = dist.new_group(ranks=ranks)
                if rank in ranks:
                    self._ar_pg.append(grp)
        self._ar_st = [torch.cuda.Stream() for _ in range(n_pg)]
        self._rs_pg = []
        for g in range(num_groups):
            ranks = [g * group_size + j for j in range(group_size)]
            for _ in range(n_pg):
                grp = dist.new_group(ranks=ranks)
                if rank in ranks:
                    self._rs_pg.append(grp)
        self._rs_st = [torch.cuda.Stream() for _ in range(n_pg)]

    def reduce(self, grads, shards, n_pg):
        for i, (g, s) in enumerate(zip(grads, shards)):
            with torch.cuda.stream(self._rs_st[i % n_pg]):
                dist.reduce_scatter_tensor(s, g, group=self._rs_pg[i % n_pg])
        for i, s in enumerate(shards):
            with torch.cuda.stream(self._ar_st[i % n_pg]):
                dist.all_reduce(s, group=self._ar_pg[i % n_pg])
