# A pipeline schedule's warm-up loop runs a number of passes computed from
# the rank in the pipeline group: every member of a stage's
# tensor-parallel group sits in that stage, runs as many passes, and
# issues the broadcast on that group as often (FlashFlex's heterogeneous
# pipeline). On the default group, or on the pipeline group itself, the
# counts differ.
import torch.distributed as dist


def warmup(t, num_microbatches, pp_group, tp_group):
    n = min(dist.get_world_size(pp_group) - dist.get_rank(pp_group) - 1, num_microbatches)
    for _ in range(n):
        dist.broadcast(t, src=0, group=tp_group)


def warmup_world(t, num_microbatches, pp_group):
    n = min(dist.get_world_size(pp_group) - dist.get_rank(pp_group) - 1, num_microbatches)
    for _ in range(n):
        dist.broadcast(t, src=0)  # want CV301 "once per element of `range\(n\)`"


def warmup_pp(t, num_microbatches, pp_group):
    n = min(dist.get_world_size(pp_group) - dist.get_rank(pp_group) - 1, num_microbatches)
    for _ in range(n):
        dist.all_reduce(t, group=pp_group)  # want CV301 "once per element of `range\(n\)`"
