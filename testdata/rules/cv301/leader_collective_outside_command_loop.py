# The leader's request path issues an all-reduce that no follower's
# command loop receives (safe_exchange_helper_command_loop.py goes through
# the loop's own helper).
import torch
import torch.distributed as dist


class Service:
    def __init__(self, rank, pg):
        self.rank = rank
        self.pg = pg

    def submit(self, task):
        if self.rank != 0:
            return None
        dist.all_reduce(task, group=self.pg)  # want CV301 "all_reduce on an unknown group runs only on the ranks that do not leave early"
        return task

    def worker_loop(self):
        while True:
            buf = torch.empty(16)
            dist.broadcast(buf, src=0, group=self.pg)
