# set_multithreading_enabled is per thread, and a process that mp.spawn
# starts does not inherit it: a switch in the launcher leaves the
# trainer's backward hooks on the autograd device thread.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


def spawned(rank, world_size, net, batches):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD, device_id=rank)  # want CV103 "HYBRID_SHARD drives two device communicators"
    for b in batches:
        model(b).sum().backward()


def launch(net, batches):
    torch.autograd.set_multithreading_enabled(False)  # the parent only
    mp.spawn(spawned, args=(8, net, batches), nprocs=8)
