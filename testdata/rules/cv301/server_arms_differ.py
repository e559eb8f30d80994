# The server's two arms issue different collectives: its clients, which
# broadcast once per round, pair one of them with the wrong operation.
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
        else:
            dist.all_reduce(torch.ones(1))


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
        run_server(10)  # want CV301 "all_reduce|broadcast|barrier"
    else:
        run_client()
