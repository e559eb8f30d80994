# The rank comes back from a helper in a tuple (NVFlare's LLM example:
# rank, world_size, local_rank = setup_distributed_training()): rank 0
# leaves the loop after one broadcast while the others issue two more.
import os

import torch.distributed as dist


def setup():
    if "RANK" in os.environ:
        rank = int(os.environ["RANK"])
        world = int(os.environ["WORLD_SIZE"])
        return rank, world
    return 0, 1


def serve():
    rank, world = setup()
    while True:
        if rank == 0:
            dist.broadcast_object_list([False], src=0)
            break
        dist.broadcast_object_list([1], src=0)
        dist.broadcast_object_list([2], src=0)  # want CV301 "rank == 0"
