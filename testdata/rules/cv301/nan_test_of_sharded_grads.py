# Under FSDP each rank holds only its own shard of the reduced gradients
# (flowprogen's FSDP trainer): a NaN test over the parameters' .grad
# answers for this rank's shard, so a rank that finds a NaN leaves while
# the others go on to the barrier.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def step(net, x, opt):
    model = FSDP(net.cuda())
    loss = model(x).sum()
    loss.backward()
    for p in model.parameters():
        if torch.isnan(p.grad).any():
            return
    dist.barrier()  # want CV301 "NaN/Inf test"
    opt.step()
