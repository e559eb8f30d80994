# ColossalAI's legacy global context: a pipeline-stage test is the same on
# every rank of a tensor-parallel group (all of them in one stage), not on
# the pipeline group, whose ranks are the stages.
import torch
import torch.distributed as dist
from colossalai.context import ParallelMode
from colossalai.core import global_context as gpc


def gather_tp(t):
    n = gpc.get_world_size(ParallelMode.PARALLEL_1D)
    out = [torch.empty_like(t) for _ in range(n)]
    dist.all_gather(out, t, group=gpc.get_group(ParallelMode.PARALLEL_1D))
    return torch.cat(out)


def gather_pp(t):
    n = gpc.get_world_size(ParallelMode.PIPELINE)
    out = [torch.empty_like(t) for _ in range(n)]
    dist.all_gather(out, t, group=gpc.get_group(ParallelMode.PIPELINE))
    return torch.cat(out)


def recv_forward(t):
    if gpc.is_pipeline_first_stage():
        return None
    return gather_tp(t)


def send_backward(t):
    if not gpc.is_pipeline_last_stage():
        return gather_pp(t)  # want CV301 "all_gather"
    return None
