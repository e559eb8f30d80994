# The same thread, but the starting thread all-reduces before it joins:
# the two threads launch on one group at the same time.
import threading

import torch
import torch.distributed as dist


def gossip(buf, peer):
    reqs = [dist.isend(buf, dst=peer), dist.irecv(torch.empty_like(buf), src=peer)]  # want CV101 "thread started at" CV101 "thread started at"
    for r in reqs:
        r.wait()


def main():
    dist.init_process_group("nccl")
    buf = torch.ones(1 << 20, device="cuda")
    peer = dist.get_rank() ^ 1
    for _ in range(10):
        t = threading.Thread(target=gossip, args=(buf, peer))
        t.start()
        dist.all_reduce(torch.randn(8, device="cuda"))
        t.join()
