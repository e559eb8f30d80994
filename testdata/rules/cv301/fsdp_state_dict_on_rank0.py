# FSDP's state_dict() is collective (it all-gathers the parameters, or
# the shards' metadata): taken on rank 0 only, it waits for the others.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, net):
        self.model = FSDP(net)

    def save(self, path, optim):
        if dist.get_rank() == 0:
            torch.save(self.model.state_dict(), path)  # want CV301 "state_dict"
        if dist.get_rank() == 0:
            torch.save(FSDP.full_optim_state_dict(self.model, optim), path + ".optim")  # want CV301 "full_optim_state_dict"

    def load_optimizer(self, optim, full_osd):
        # Rank 0 broadcasts the full state to the others' shards: every
        # rank must call it.
        if dist.get_rank() == 0:
            optim.load_state_dict(FSDP.scatter_full_optim_state_dict(full_osd, self.model))  # want CV301 "scatter_full_optim_state_dict"

    def save_sharded(self, optim, path):
        if dist.get_rank() == 0:
            torch.save(FSDP.sharded_optim_state_dict(self.model, optim), path)  # want CV301 "sharded_optim_state_dict"
