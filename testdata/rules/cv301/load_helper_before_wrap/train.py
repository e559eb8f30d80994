# A script fills rank 0's module through a helper before FSDP wraps it
# with sync_module_states (llama_fsdp's inference scripts): the helper's
# load_state_dict is the plain module's there. The same helper called on
# the wrapped model under the same test is FSDP's, which is collective.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from ckpt import load_checkpoint

dist.init_process_group("nccl")
torch.cuda.set_device(dist.get_rank())

model = nn.Linear(8, 8)
if dist.get_rank() == 0:
    load_checkpoint(model, "w.pt")
model = FSDP(model, sync_module_states=True, device_id=torch.cuda.current_device())

if dist.get_rank() == 0:
    load_checkpoint(model, "w.pt")  # want CV301 "load_state_dict .* runs only when"
out = model(torch.randn(2, 8, device="cuda"))
