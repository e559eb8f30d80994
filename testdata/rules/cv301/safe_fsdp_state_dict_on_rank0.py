# Every rank takes the state dict (rank0_only keeps the full copy on rank
# 0); only the writing is gated. A plain module's state_dict() is local.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullStateDictConfig, StateDictType
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, net, head):
        self.model = FSDP(net)
        self.head = head

    def save(self, path):
        cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
        with FSDP.state_dict_type(self.model, StateDictType.FULL_STATE_DICT, cfg):
            state = self.model.state_dict()
        if dist.get_rank() == 0:
            torch.save(state, path)
            torch.save(self.head.state_dict(), path + ".head")

    def load_optimizer(self, optim, full_osd):
        # Every rank calls the scatter; only rank 0 passes the full state.
        full = full_osd if dist.get_rank() == 0 else None
        optim.load_state_dict(FSDP.scatter_full_optim_state_dict(full, self.model))
