# set_multithreading_enabled is per thread: a switch on the main thread
# while a worker thread trains leaves that thread's backward hooks on the
# autograd device thread. The fix belongs on the worker thread, so none is
# offered.
import threading

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


def threaded(net, batches):
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)  # want CV103 "while a thread started at .*, which runs this model, drives the same communicators.*on that thread, before its backward"
    for b in batches:
        model(b).sum().backward()


def main(net, batches):
    dist.init_process_group("nccl")
    torch.autograd.set_multithreading_enabled(False)  # the main thread only
    t = threading.Thread(target=threaded, args=(net, batches))
    t.start()
    t.join()
