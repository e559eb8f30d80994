# The server decides when to stop and broadcasts the decision each round,
# in one arm or the other; the clients leave when they receive it. Both
# roles issue a barrier and one broadcast per round.
import torch
import torch.distributed as dist


def run_server(rounds):
    r = 0
    while True:
        dist.barrier()
        r += 1
        if r == rounds:
            dist.broadcast(torch.tensor([0.0]), src=0)
            break
        elif r % 10 == 0:
            dist.broadcast(torch.tensor([2.0]), src=0)
        else:
            dist.broadcast(torch.tensor([1.0]), src=0)


def run_client():
    while True:
        dist.barrier()
        flag = torch.zeros(1)
        dist.broadcast(flag, src=0)
        if flag[0] == 0:
            break


def main():
    dist.init_process_group("gloo")
    if dist.get_rank() == 0:
        run_server(10)
    else:
        run_client()
