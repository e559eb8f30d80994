# One start site in a helper that a loop calls once per peer: as many
# threads as peers, each on the default group.
import threading

import torch
import torch.distributed as dist


def worker(peer, tag):
    dist.send(torch.ones(1, device="cuda"), dst=peer, tag=tag)  # want CV101 "several threads at once"


def start(fn, args):
    threading.Thread(target=fn, args=args).start()


def main(peers):
    dist.init_process_group("nccl")
    for i, p in enumerate(peers):
        start(worker, (p, i))
