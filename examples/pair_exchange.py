"""Two ranks swap a tensor: each sends its own, then receives the other's.

Every rank runs the send first, so each waits in its send for a peer that
is waiting in its own. NCCL and MPI hand small messages over eagerly, so
this passes a test with a few floats and hangs once the tensors grow; on
gloo it hangs at once (BENCHMARKS.md: 16 floats, both ranks stuck in
send). collvet reports CV302 at the send. `swap_ordered` below is the
fix by rank parity, and `swap_batched` the one with batch_isend_irecv;
both are quiet.

    torchrun --nproc-per-node 2 examples/pair_exchange.py
"""

import torch
import torch.distributed as dist


def swap(mine):
    peer = dist.get_rank() ^ 1
    theirs = torch.empty_like(mine)
    dist.send(mine, dst=peer)
    dist.recv(theirs, src=peer)
    return theirs


def swap_ordered(mine):
    rank = dist.get_rank()
    peer = rank ^ 1
    theirs = torch.empty_like(mine)
    if rank % 2 == 0:
        dist.send(mine, dst=peer)
        dist.recv(theirs, src=peer)
    else:
        dist.recv(theirs, src=peer)
        dist.send(mine, dst=peer)
    return theirs


def swap_batched(mine):
    peer = dist.get_rank() ^ 1
    theirs = torch.empty_like(mine)
    ops = [dist.P2POp(dist.isend, mine, peer), dist.P2POp(dist.irecv, theirs, peer)]
    for req in dist.batch_isend_irecv(ops):
        req.wait()
    return theirs


if __name__ == "__main__":
    dist.init_process_group()
    t = torch.full((1 << 24,), float(dist.get_rank()))
    print(swap_ordered(t)[0].item(), swap_batched(t)[0].item())
    print(swap(t)[0].item())  # the hazard: hangs here
    dist.destroy_process_group()
