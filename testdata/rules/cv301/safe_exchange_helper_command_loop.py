# The leader (rank 0, serving requests) and the followers (a command loop)
# call one exchange helper that holds both halves of the protocol: the
# leader's broadcasts are the ones the followers' loop receives, on a
# group the analysis cannot name (LightX2V's task channel).
import torch
import torch.distributed as dist


class TaskChannel:
    def __init__(self, rank, pg):
        self.rank = rank
        self.pg = pg

    def exchange(self, task=None):
        if self.rank == 0:
            flag = torch.tensor([1 if task is None else 0])
            dist.broadcast(flag, src=0, group=self.pg)
            if task is not None:
                dist.broadcast(task, src=0, group=self.pg)
            return task
        flag = torch.zeros(1, dtype=torch.int64)
        dist.broadcast(flag, src=0, group=self.pg)
        if flag.item() == 1:
            return None
        buf = torch.empty(16)
        dist.broadcast(buf, src=0, group=self.pg)
        return buf


class Service:
    def __init__(self, chan: TaskChannel, rank: int):
        self.chan = chan
        self.rank = rank

    def submit(self, task):
        if self.rank != 0:
            return None
        return self.chan.exchange(task)

    def worker_loop(self):
        while True:
            task = self.chan.exchange()
            if task is None:
                break
