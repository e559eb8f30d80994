# Rank 0 takes the module out of its DDP wrapper to save it, in the
# model's own variable, inside the training loop: from the next step on
# it runs the plain module, whose forward and backward issue none of
# DDP's collectives, while the other ranks' DDP forwards and backwards
# wait for it.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(model, data, save_every):
    rank = dist.get_rank()
    model = DDP(model)
    opt = torch.optim.AdamW(model.parameters())
    for step, x in enumerate(data):
        loss = model(x).sum()  # want CV301 "arm rebinds the model's variable to the module its wrapper holds"
        loss.backward()
        opt.step()
        if rank == 0 and step % save_every == 0:
            model = model.module if hasattr(model, "module") else model
            torch.save(model.state_dict(), "ckpt.pt")
