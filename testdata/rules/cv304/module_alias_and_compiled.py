# The wrapped module is trained through another name for it (`raw_model
# = model`, annotated or not), or DDP wraps torch.compile(model) while the
# loop calls model itself: both forwards run past DDP, whose gradients
# then stay each rank's own (nanogpt-titans' train_ddp.py).
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def alias(model, x, y, opt, local_rank):
    wrapped_model = DDP(model, device_ids=[local_rank])
    raw_model: torch.nn.Module = model
    for _ in range(10):
        loss = raw_model(x, y)
        loss.backward()  # want CV304 "computed by `raw_model`"
        opt.step()


def compiled(model, x, y, opt, local_rank, use_compile):
    compiled_model = model
    if use_compile:
        compiled_model = torch.compile(model)
    wrapped_model = DDP(compiled_model, device_ids=[local_rank])
    for _ in range(10):
        loss = model(x, y)
        loss.backward()  # want CV304 "computed by `model`"
        opt.step()
