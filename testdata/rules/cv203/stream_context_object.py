# torch.cuda.stream(s) returns a torch.cuda.StreamContext; entering one
# built directly switches streams the same way (xffl's layer-by-layer
# aggregation).
import torch
import torch.distributed as dist


def aggregate(p: torch.Tensor, side: torch.cuda.Stream) -> torch.Tensor:
    p.mul_(2)
    with torch.cuda.StreamContext(side):
        dist.all_reduce(p)  # want CV203 "\"p\" is written on the current stream"
    return p * 3  # want CV203 "\"p\" is written on side"
