# A helper that all-reduces something else and hands the signal flag
# back as it is: each rank still leaves on its own flag, at its own pass.
import signal

import torch
import torch.distributed as dist

_stop = False


def _on_term(*args):
    global _stop
    _stop = True


def report_and_check(flag):
    heartbeat = torch.ones(1, device="cuda")
    dist.all_reduce(heartbeat)
    return flag


def main():
    signal.signal(signal.SIGTERM, _on_term)
    dist.init_process_group("nccl")
    for epoch in range(10):
        dist.broadcast(torch.zeros(1, device="cuda"), 0)  # want CV301 "do not leave early"
        if report_and_check(_stop):
            break
