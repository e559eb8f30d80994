# The wrapper is what the loop calls; the other name for the module only
# saves it or reads its configuration.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def alias(model, x, y, opt, local_rank):
    wrapped_model = DDP(model, device_ids=[local_rank])
    raw_model = model
    for _ in range(10):
        loss = wrapped_model(x, y)
        loss.backward()
        opt.step()
    torch.save(raw_model.state_dict(), "ckpt.pt")


def compiled(model, x, y, opt, local_rank):
    model = torch.compile(model)
    model = DDP(model, device_ids=[local_rank])
    for _ in range(10):
        loss = model(x, y)
        loss.backward()
        opt.step()
