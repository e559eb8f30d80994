# apex's DistributedFusedLAMB: reduce-scatter handles filed in a list on
# one set of groups, each waited (works[i].wait()) before the all-reduce
# on the other set of groups reuses the chunk.
import torch
import torch.distributed as dist


class Lamb:
    def __init__(self, group_size, num_groups):
        rank = dist.get_rank()
        self._ar_pg, self._rs_pg = [], []
        for dev in range(group_size):
            ranks = [dev + j * group_size for j in range(num_groups)]
            grp = dist.new_group(ranks=ranks)
            if rank in ranks:
                self._ar_pg.append(grp)
        for g in range(num_groups):
            ranks = [g * group_size + j for j in range(group_size)]
            grp = dist.new_group(ranks=ranks)
            if rank in ranks:
                self._rs_pg.append(grp)

    def reduce(self, chunks, shards):
        works = [None] * len(chunks)
        for i in range(len(chunks)):
            works[i] = dist.reduce_scatter_tensor(shards[i], chunks[i], group=self._rs_pg[0], async_op=True)
        for i in range(len(chunks)):
            works[i].wait()
            works[i] = dist.all_reduce(shards[i], group=self._ar_pg[0], async_op=True)
        return works
