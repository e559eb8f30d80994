# One TorchComm driven from a worker thread and from the main thread.
import threading

import torch
import torchcomms
from torchcomms import ReduceOp


def main():
    comm = torchcomms.new_comm("ncclx", torch.device("cuda"), name="c")
    t = torch.ones(4, device="cuda")
    u = torch.ones(4, device="cuda")
    th = threading.Thread(target=lambda: comm.all_reduce(u, ReduceOp.SUM, async_op=False))  # want CV101 "TorchComm.all_reduce on group new_comm@"
    th.start()
    comm.all_reduce(t, ReduceOp.SUM, async_op=False)
    th.join()
