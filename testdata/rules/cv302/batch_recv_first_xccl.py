# O3 (meta-pytorch/torchcomms PR #2885): oneCCL runs a batch_isend_irecv
# in list order, so a receive listed before the send waits for a peer
# whose send is queued behind its own receive.
import torch
import torch.distributed as dist


def exchange(send_t, recv_t, peer):
    ops = [
        dist.P2POp(dist.irecv, recv_t, peer),  # want CV302 "lists a receive before a send.*\(xccl\)"
        dist.P2POp(dist.isend, send_t, peer),
    ]
    for r in dist.batch_isend_irecv(ops):
        r.wait()


def inline(send_t, recv_t, prev, nxt):
    reqs = dist.batch_isend_irecv([dist.P2POp(dist.irecv, recv_t, prev), dist.P2POp(dist.isend, send_t, nxt)])  # want CV302 "list the sends first"
    for r in reqs:
        r.wait()


def main():
    dist.init_process_group("xccl")
    torch.xpu.set_device(dist.get_rank())
    exchange(torch.ones(8, device="xpu"), torch.empty(8, device="xpu"), dist.get_rank() ^ 1)
