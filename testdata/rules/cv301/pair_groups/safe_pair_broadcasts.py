# Broadcasts on two-rank pair groups that only the pair's members keep,
# rooted at one of the two: sends from one stage to the next, which the
# stage tests split by rank as a send and a receive are (terapipe).
import torch.distributed as dist

import mpu


class Stage:
    def __init__(self, stage, n_stages):
        self.rank = dist.get_rank()
        self.stage, self.n_stages = stage, n_stages
        self.pred_group = mpu.get_pred_group()
        self.succ_group = mpu.get_succ_group()

    def forward(self, x, prev, nxt):
        if self.stage > 0:
            dist.broadcast(x, prev, group=self.succ_group)
        y = x * 2
        if self.stage < self.n_stages - 1:
            dist.broadcast(y, self.rank, group=self.pred_group)
        return y


class LocalPairs:
    def __init__(self):
        self.rank = dist.get_rank()
        self.size = dist.get_world_size()
        self.pred_group = self.succ_group = None
        for i in range(1, self.size):
            pred, succ = i - 1, i
            group = dist.new_group([pred, succ])
            if self.rank == pred:
                self.pred_group = group
            if self.rank == succ:
                self.succ_group = group

    def forward(self, x):
        if self.rank > 0:
            dist.broadcast(x, self.rank - 1, group=self.succ_group)
        if self.rank < self.size - 1:
            dist.broadcast(x, self.rank, group=self.pred_group)
