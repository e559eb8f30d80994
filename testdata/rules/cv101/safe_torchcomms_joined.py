# The worker thread is joined before the main thread communicates, and a
# gloo communicator of its own serves the background thread.
import threading

import torch
import torchcomms
from torchcomms import ReduceOp


def main():
    comm = torchcomms.new_comm("ncclx", torch.device("cuda"), name="c")
    side = torchcomms.new_comm("gloo", torch.device("cpu"), name="side")
    t = torch.ones(4, device="cuda")
    flag = torch.zeros(1)
    th = threading.Thread(target=lambda: comm.all_reduce(t, ReduceOp.SUM, async_op=False))
    th.start()
    th.join()
    comm.all_reduce(t, ReduceOp.SUM, async_op=False)
    poll = threading.Thread(target=lambda: side.all_reduce(flag, ReduceOp.MAX, async_op=False))
    poll.start()
    comm.broadcast(t, 0, False)
