import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(model, loader, opt, microbatch_size):
    dist.init_process_group("nccl")
    model = DDP(model.cuda())
    for batch in loader:
        while True:
            try:
                opt.zero_grad()
                for mb in batch.split(microbatch_size):
                    loss = model(mb.cuda()).sum()
                    loss.backward()
                opt.step()
                break
            except torch.cuda.OutOfMemoryError:
                microbatch_size //= 2
                torch.cuda.empty_cache()
                continue
