# A script fills rank 0's module from a checkpoint, then wraps it with
# FSDP, whose sync_module_states broadcasts rank 0's weights: at the
# load, `model` is still the plain module, whatever the script binds it
# to later.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group("nccl")
torch.cuda.set_device(dist.get_rank())

model = nn.Linear(8, 8)
if dist.get_rank() == 0:
    model.load_state_dict(torch.load("w.pt"))
model = FSDP(model, sync_module_states=True, device_id=torch.cuda.current_device())
out = model(torch.randn(2, 8, device="cuda"))
