# An FSDP comm hook reduces on an intra-node subgroup and then gossips on
# an inter-node group: two device communicators driven from the autograd
# engine's thread (torchdistx's gossip_grad hook). The groups come in
# through the hook's state argument.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class State:
    def __init__(self):
        self.local_group, _ = dist.new_subgroups()
        self.master_group = dist.new_group([0, 8])


def gossip_hook(state, grad):
    dist.all_reduce(grad, group=state.local_group)  # want CV102 "all_reduce on group new_subgroups"
    dist.broadcast(grad, src=0, group=state.master_group)  # want CV102 "broadcast on group new_group"


def main():
    dist.init_process_group("nccl")
    model = FSDP(torch.nn.Linear(8, 8).cuda())
    model.register_comm_hook(State(), gossip_hook)
    model(torch.randn(4, 8, device="cuda")).sum().backward()
    dist.barrier()
