# A predicate tested without its call is always true (TorchDistPackage's
# pipeline warm-up): no stage receives, while every stage but the last
# sends, and the sends wait forever.
import torch
import torch.distributed as dist


def is_first_stage():
    return dist.get_rank() == 0


def is_last_stage():
    return dist.get_rank() == dist.get_world_size() - 1


class Topology:
    def is_first_in_pipeline_group(self):
        return dist.get_rank() == 0


tpc = Topology()


def warmup(x):
    meta = torch.zeros(4, dtype=torch.long)
    if not is_first_stage:  # want CV301 "`is_first_stage` is a function, not its result"
        dist.recv(meta, dist.get_rank() - 1)
    if not is_last_stage():
        dist.send(meta, dist.get_rank() + 1)


def warmup_method(x):
    meta = torch.zeros(4, dtype=torch.long)
    if not tpc.is_first_in_pipeline_group:  # want CV301 "`tpc.is_first_in_pipeline_group` is a function"
        dist.recv(meta, dist.get_rank() - 1)
