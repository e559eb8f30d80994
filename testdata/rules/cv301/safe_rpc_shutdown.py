# PyTorch's RPC examples: each role joins under its own name, and every
# worker shuts down gracefully after the if.
import os

import torch.distributed.rpc as rpc


def train():
    pass


def run(world_size):
    rank = int(os.environ["RANK"])
    if rank == 0:
        rpc.init_rpc("master", rank=rank, world_size=world_size)
        train()
    else:
        rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size)
    rpc.shutdown()
