"""The same HYBRID_SHARD loop, with backward (and its hooks) on the main thread.

torch.autograd.set_multithreading_enabled(False) (a plain call from torch
2.1; thread-local) makes the autograd engine run backward on the thread that
calls loss.backward(), so every collective of both communicators is
launched from one host thread in program order. collvet is silent here.
"""
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def train(net, loader, steps):
    dist.init_process_group("nccl")
    torch.autograd.set_multithreading_enabled(False)
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD, device_id=torch.cuda.current_device())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _, batch in zip(range(steps), loader):
        loss = model(batch).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
