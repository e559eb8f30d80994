# The hazardous neighbour of safe_gloo_throughout.py: on NCCL the two
# groups are device communicators, one driven from a thread and one from
# the main thread.
import threading
import torch
import torch.distributed as dist


def recv_loop(group):
    while True:
        buf = torch.empty(8)
        dist.recv(buf, group=group)  # want CV103 "recv on group new_group@\S+:17 is issued from a thread started at"


def main(rank, world_size):
    dist.init_process_group(backend="nccl", rank=rank, world_size=world_size)
    pair_group = dist.new_group([0, 1])
    stage_group = dist.new_group([0, 2])
    threading.Thread(target=recv_loop, args=(pair_group,), daemon=True).start()
    x = torch.zeros(8)
    dist.all_reduce(x, group=stage_group)
