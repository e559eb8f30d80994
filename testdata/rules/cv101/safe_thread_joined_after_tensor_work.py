# A gossip thread started in each pass of a loop and joined in the same
# pass, with only local tensor work between (ChocoSGD-style helper
# threads): one such thread at a time, and the starting thread issues no
# collective while it runs.
import threading

import torch
import torch.distributed as dist


def gossip(buf, peer):
    reqs = [dist.isend(buf, dst=peer), dist.irecv(torch.empty_like(buf), src=peer)]
    for r in reqs:
        r.wait()


def main():
    dist.init_process_group("nccl")
    buf = torch.ones(1 << 20, device="cuda")
    peer = dist.get_rank() ^ 1
    for _ in range(10):
        t = threading.Thread(target=gossip, args=(buf, peer))
        t.start()
        torch.randn(8).sum()
        t.join()
