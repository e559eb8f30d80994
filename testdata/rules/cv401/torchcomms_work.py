# torchcomms: TorchComm collectives take a required async_op and return a
# TorchWork.
import torch
import torchcomms
from torchcomms import ReduceOp


def main():
    comm = torchcomms.new_comm("ncclx", torch.device("cuda"), name="main")
    t = torch.ones(4, device="cuda")
    comm.all_reduce(t, ReduceOp.SUM, True)  # want CV401 "TorchComm.all_reduce returns is discarded"
    comm.barrier(async_op=True)  # want CV401 "TorchComm.barrier returns is discarded"
    work = comm.all_reduce(t, ReduceOp.SUM, async_op=True)
    y = t * 2  # want CV401 "\"t\" is read here while TorchComm.all_reduce"
    work.wait()
    return y
