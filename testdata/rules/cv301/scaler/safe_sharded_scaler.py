# ShardedGradScaler all-reduces the inf/NaN check, so every rank decides
# alike; a plain GradScaler is right wherever the gradients are whole.
import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler


def loop(model, opt, loader, use_fsdp):
    model = FSDP(model) if use_fsdp else model
    scaler = ShardedGradScaler() if use_fsdp else torch.cuda.amp.GradScaler()
    for batch in loader:
        scaler.scale(model(batch).sum()).backward()
        scaler.step(opt)
        scaler.update()
