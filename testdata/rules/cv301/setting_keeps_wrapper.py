# The setting that made the FSDP wrapper is the one the save tests, in the
# same sense: rank 0 alone gathers the sharded state there.
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def __init__(self, params, global_rank, local_rank):
        self.params = params
        self.global_rank = global_rank
        model = torch.nn.Linear(8, 8).cuda()
        if self.params.use_fsdp:
            self.model = FSDP(model, use_orig_params=True)
        else:
            self.model = DDP(model, device_ids=[local_rank])

    def save_checkpoint(self, path):
        if self.params.use_fsdp:
            if self.global_rank == 0:
                torch.save(self.model.state_dict(), path)  # want CV301 "state_dict"

    def save_any(self, path):
        if self.global_rank == 0:
            torch.save(self.model.state_dict(), path)  # want CV301 "state_dict"


if __name__ == "__main__":
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    params = type("P", (), {"use_fsdp": os.environ.get("USE_FSDP") == "1"})()
    t = Trainer(params, dist.get_rank(), local_rank)
    t.save_checkpoint("ckpt.pt")
    t.save_any("ckpt2.pt")
