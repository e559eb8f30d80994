# A TorchComm barrier only the ranks other than 0 reach.
import os

import torch
import torchcomms


def main():
    comm = torchcomms.new_comm("ncclx", torch.device("cuda"), name="c")
    if comm.get_rank() == 0:
        os._exit(0)
    comm.barrier(async_op=False)  # want CV301 "TorchComm.barrier on group new_comm@"


def balanced(comm: torchcomms.TorchComm, t):
    if comm.get_rank() == 0:
        comm.send(t, 1, False)
    else:
        comm.recv(t, 0, False)
