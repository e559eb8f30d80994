# One setting picks the wrapper and the way to save it: rank 0 alone calls
# state_dict() only in the arm where the model is DDP, whose state_dict does
# not communicate.
import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict
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
        self.optimizer = torch.optim.AdamW(self.model.parameters())

    def save_checkpoint(self, path):
        model = self.model
        if self.params.use_fsdp:
            msd, osd = get_state_dict(model, self.optimizer)
            dcp.save({"model": msd, "optim": osd}, checkpoint_id=path)
        else:
            if self.global_rank == 0:
                torch.save({"model_state": model.state_dict()}, path)


def local_wrapper(args, model):
    if args.fsdp:
        wrapped = FSDP(model)
    else:
        wrapped = DDP(model)
    if not args.fsdp and dist.get_rank() == 0:
        torch.save(wrapped.state_dict(), "ckpt.pt")
    return wrapped


if __name__ == "__main__":
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    params = type("P", (), {"use_fsdp": os.environ.get("USE_FSDP") == "1"})()
    Trainer(params, dist.get_rank(), local_rank).save_checkpoint("ckpt.pt")
