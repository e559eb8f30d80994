# A ring peer compared with a fixed rank, or a helper handed some other
# rank value by one of its callers: the test holds on some ranks only.
import torch
import torch.distributed as dist


def step(x):
    rank, ws = dist.get_rank(), dist.get_world_size()
    peer = (rank + 1) % ws
    if peer == 0:
        dist.all_reduce(x)  # want CV301 "all_reduce"


def exchange(peer_idx, x):
    if peer_idx == dist.get_rank():
        return
    dist.all_reduce(x)  # want CV301 "all_reduce"


def callers(x):
    rank, ws = dist.get_rank(), dist.get_world_size()
    for r in range(ws):
        exchange((rank + r) % ws, x)
    exchange(rank // 2, x)
