# The gather's list is given where the local rank is 0, but the root is
# global rank 0: on the second node, local rank 0 (global rank 8, ...)
# passes a gather_list as a non-root and raises ValueError before it
# joins, while every other rank waits in the gather (DoReMi's per-domain
# excess losses).
import os

import torch
import torch.distributed as dist


def collect(excess_loss, world_size):
    local_rank = int(os.environ["LOCAL_RANK"])
    if local_rank == 0:
        gathered = [torch.zeros_like(excess_loss) for _ in range(world_size)]
        dist.gather(excess_loss, gathered, dst=0)  # want CV303 "a test of the local rank"
        return torch.cat(gathered, dim=0)
    else:
        dist.gather(excess_loss, dst=0)
        return None


class Trainer:
    def is_local_process_zero(self):
        return int(os.environ["LOCAL_RANK"]) == 0

    def scatter_weights(self, out, chunks):
        if self.is_local_process_zero():
            dist.scatter(out, chunks, src=0)  # want CV303 "scatter_list"
        else:
            dist.scatter(out, src=0)
