# The same script loading on rank 0 after the wrap: FSDP's
# load_state_dict is collective over the ranks that share its shards.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group("nccl")
torch.cuda.set_device(dist.get_rank())

model = nn.Linear(8, 8)
model = FSDP(model, device_id=torch.cuda.current_device())
if dist.get_rank() == 0:
    model.load_state_dict(torch.load("w.pt"))  # want CV301 "load_state_dict .* runs only when"
out = model(torch.randn(2, 8, device="cuda"))
