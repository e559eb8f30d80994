# torchcomms: blocking calls (async_op=False) return a completed work, and
# async ones waited before their result is used.
import torch
import torchcomms
from torchcomms import ReduceOp


def main():
    comm = torchcomms.new_comm("nccl", torch.device("cuda"), name="main")
    t = torch.ones(4, device="cuda")
    comm.all_reduce(t, ReduceOp.SUM, False)
    comm.barrier(async_op=False)
    work = comm.all_reduce(t, ReduceOp.SUM, async_op=True)
    work.wait()
    sub = comm.split([0, 1], "pair")
    sub.broadcast(t, 0, False)
    return t * 2
