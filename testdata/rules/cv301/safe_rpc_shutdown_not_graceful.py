# rpc.shutdown(graceful=False) stops the local agent without waiting for
# the other workers: the master may call it alone.
import os

import torch.distributed.rpc as rpc


def train():
    pass


def run(world_size):
    rank = int(os.environ["RANK"])
    if rank == 0:
        rpc.init_rpc("master", rank=rank, world_size=world_size)
        train()
        rpc.shutdown(graceful=False)
    else:
        rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size)


def run_positional(world_size):
    rank = int(os.environ["RANK"])
    rpc.init_rpc(f"w{rank}", rank=rank, world_size=world_size)
    if rank == 0:
        rpc.shutdown(False)
