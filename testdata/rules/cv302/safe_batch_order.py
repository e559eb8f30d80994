# On oneCCL the sends come first; NCCL groups a batch as a whole, so the
# order inside the list does not matter there (this program's backend).
import torch
import torch.distributed as dist


def exchange(send_t, recv_t, peer):
    ops = [
        dist.P2POp(dist.irecv, recv_t, peer),
        dist.P2POp(dist.isend, send_t, peer),
    ]
    for r in dist.batch_isend_irecv(ops):
        r.wait()


def main():
    dist.init_process_group("nccl")
    exchange(torch.ones(8, device="cuda"), torch.empty(8, device="cuda"), dist.get_rank() ^ 1)
