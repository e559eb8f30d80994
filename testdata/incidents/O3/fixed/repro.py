import os

import torch
import torch.distributed as dist


def exchange(send_t, recv_t, peer):
    ops = [
        dist.P2POp(dist.isend, send_t, peer),
        dist.P2POp(dist.irecv, recv_t, peer),
    ]
    reqs = dist.batch_isend_irecv(ops)
    for r in reqs:
        r.wait()
    return recv_t


def main():
    torch.xpu.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("xccl")
    rank = dist.get_rank()
    peer = rank ^ 1
    send_t = torch.full((4096,), float(rank), device="xpu")
    recv_t = torch.empty(4096, device="xpu")
    exchange(send_t, recv_t, peer)


if __name__ == "__main__":
    main()
