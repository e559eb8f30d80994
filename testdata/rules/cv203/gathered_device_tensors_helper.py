# The helper hands back the gathered device tensors themselves: made on
# the side stream, read on the current one without a wait.
import torch
import torch.distributed as dist


def gather_all(t):
    out = [torch.empty_like(t) for _ in range(dist.get_world_size())]
    dist.all_gather(out, t)
    return out


def write_metrics(t):
    with torch.cuda.stream(torch.cuda.Stream()):
        parts = gather_all(t)
    return torch.stack(parts).mean()  # want CV203 "\"parts\" is written on"
