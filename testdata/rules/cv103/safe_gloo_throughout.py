# A job that is gloo throughout: the groups new_group makes without a
# backend inherit the default group's, so a receiving thread and the main
# thread drive no device communicator (diloco-swarm's world setup).
import threading
import torch
import torch.distributed as dist


def recv_loop(group):
    while True:
        buf = torch.empty(8)
        dist.recv(buf, group=group)


def main(rank, world_size):
    dist.init_process_group(backend="gloo", rank=rank, world_size=world_size)
    pair_group = dist.new_group([0, 1])
    stage_group = dist.new_group([0, 2])
    threading.Thread(target=recv_loop, args=(pair_group,), daemon=True).start()
    x = torch.zeros(8)
    dist.all_reduce(x, group=stage_group)
