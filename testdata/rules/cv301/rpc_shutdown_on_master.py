# A graceful rpc.shutdown() waits until every RPC worker has called it;
# here only the master does, so it waits for workers that never come.
import os

import torch.distributed.rpc as rpc


def train():
    pass


def run(world_size):
    rank = int(os.environ["RANK"])
    if rank == 0:
        rpc.init_rpc("master", rank=rank, world_size=world_size)
        train()
        rpc.shutdown()  # want CV301 "shutdown"
    else:
        rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size)


def run_graceful_spelled_out(world_size):
    rank = int(os.environ["RANK"])
    rpc.init_rpc(f"w{rank}", rank=rank, world_size=world_size)
    if rank == 0:
        rpc.shutdown(graceful=True)  # want CV301 "shutdown"
