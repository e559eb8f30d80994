# A ring exchange whose round 0 pairs every rank with itself: the peers
# are the own rank moved round the ring by the round number, so "my peer
# is me" holds on every rank in the same round (IntelLabs SAR's
# exchange_single_tensor), inline or handed to a helper.
import torch
import torch.distributed as dist


def exchange(recv_idx, send_idx, recv_tensor, send_tensor):
    if send_idx == recv_idx == dist.get_rank():
        recv_tensor.copy_(send_tensor)
    else:
        ws = dist.get_world_size()
        send_list = [torch.zeros(1) for _ in range(ws)]
        recv_list = [torch.zeros(1) for _ in range(ws)]
        send_list[send_idx] = send_tensor
        recv_list[recv_idx] = recv_tensor
        dist.all_to_all(recv_list, send_list)


def rounds(x):
    dist.init_process_group("nccl")
    rank, ws = dist.get_rank(), dist.get_world_size()
    for comm_round in range(ws):
        recv_idx = (rank - comm_round) % ws
        send_idx = (rank + comm_round) % ws
        exchange(recv_idx, send_idx, torch.empty(4), x)


def rounds_inline(x):
    rank, ws = dist.get_rank(), dist.get_world_size()
    for step in range(ws):
        peer = (rank + step) % ws
        if peer == rank:
            continue
        dist.all_reduce(x)
