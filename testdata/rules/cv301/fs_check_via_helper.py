# A file system check answered by a helper is still each host's own
# answer (ColBERT's indexer: a resume plan found on some hosts only).
import os

import torch
import torch.distributed as dist


def host_ready():
    return os.path.exists("/dev/shm/ready")


class Indexer:
    def __init__(self, plan_path, resume):
        self.plan_path, self.resume = plan_path, resume

    def _try_load_plan(self):
        if os.path.exists(self.plan_path):
            return True
        return False

    def _plan_found(self):
        found = os.path.isfile(self.plan_path)
        return found

    def setup(self):
        if self.resume:
            if self._try_load_plan():
                return
        n = torch.ones(1, device="cuda")
        dist.all_reduce(n)  # want CV301 "`self._try_load_plan\(\)`\), which depends on a file system check"

    def rebuild(self, n):
        if not self._plan_found():
            dist.all_reduce(n)  # want CV301 "a file system check"


def main(t):
    ok = host_ready()
    if ok:
        dist.barrier()  # want CV301 "a file system check"
