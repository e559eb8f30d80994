# Every rank steps the ZeroRedundancyOptimizer; only the logging is gated.
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


def train(model, loss):
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW)
    loss.backward()
    opt.step()
    opt.consolidate_state_dict(to=0)
    if dist.get_rank() == 0:
        print(opt.state_dict())
