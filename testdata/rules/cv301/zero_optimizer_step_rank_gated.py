# ZeroRedundancyOptimizer.step broadcasts each rank's updated shard: every
# rank of its group must call it.
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


def train(model, loss):
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW)
    loss.backward()
    if dist.get_rank() == 0:
        opt.step()  # want CV301 "ZeroRedundancyOptimizer.step on the default group \(WORLD\) runs only when"
