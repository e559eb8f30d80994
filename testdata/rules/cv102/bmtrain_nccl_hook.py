# BMTrain's own NCCL binding: a ZeRO-style gradient hook all-gathers on the
# communicator the program made with bmtrain.nccl.commInitRank.
import torch
from bmtrain import nccl


def setup(uid, world, rank):
    return nccl.commInitRank(uid, world, rank)


def attach(param, buf, comm):
    def hook(grad):
        nccl.allGather(grad.storage(), buf.storage(), comm)  # want CV102 "allGather on group commInitRank"
        return grad

    param.register_hook(hook)


def main(uid, world, rank, model, x, buf):
    comm = setup(uid, world, rank)
    for p in model.parameters():
        attach(p, buf, comm)
    model(x).sum().backward()
