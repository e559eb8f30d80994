# The switch runs where the trainer runs: in the spawned process after its
# init, and on the worker thread before its backward.
import threading

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


def spawned(rank, world_size, net, batches):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.autograd.set_multithreading_enabled(False)
    torch.cuda.set_device(rank)
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD, device_id=rank)
    for b in batches:
        model(b).sum().backward()


def launch(net, batches):
    mp.spawn(spawned, args=(8, net, batches), nprocs=8)


def threaded(net, batches):
    torch.autograd.set_multithreading_enabled(False)
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
    for b in batches:
        model(b).sum().backward()


def main(net, batches):
    t = threading.Thread(target=threaded, args=(net, batches))
    t.start()
    t.join()
