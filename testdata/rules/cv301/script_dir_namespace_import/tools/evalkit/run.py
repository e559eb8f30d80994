# Run as `python tools/evalkit/run.py`: sys.path[0] is tools/evalkit, so `pkg`
# resolves to tools/evalkit/pkg, a namespace package (no __init__.py), and
# get_rank_and_world_size comes from it.
import torch.distributed as dist
from pkg.sub import *


def main(names):
    rank, world_size = get_rank_and_world_size()
    for name in names:
        dist.barrier()
        if rank == 0:
            if name == "x":
                continue  # rank 0 skips the barrier below
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only on the ranks that do not leave early"
