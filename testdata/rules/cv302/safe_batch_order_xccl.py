# The fix for oneCCL: sends before receives.
import torch
import torch.distributed as dist


def exchange(send_t, recv_t, peer):
    ops = [
        dist.P2POp(dist.isend, send_t, peer),
        dist.P2POp(dist.irecv, recv_t, peer),
    ]
    for r in dist.batch_isend_irecv(ops):
        r.wait()


def main():
    dist.init_process_group("xccl")
    exchange(torch.ones(8, device="xpu"), torch.empty(8, device="xpu"), dist.get_rank() ^ 1)
