# The default group is sized for every rank, but only the ranks in `ranks`
# make it (safe_subset_world_init.py sizes it len(ranks)).
import os

import torch.distributed as dist


class Updater:
    def __init__(self, rank):
        self.rank = rank

    def update(self, ranks, buf):
        world = int(os.environ["WORLD_SIZE"])
        if self.rank not in ranks:
            return
        dist.init_process_group("nccl", world_size=world, rank=self.rank)  # want CV301 "init_process_group on the default group \(WORLD\) runs only on the ranks that do not leave early"
        dist.barrier()
        dist.broadcast(buf, src=0)
