# R14 (facebookresearch/fairscale#754): a plain GradScaler on gradients
# that FSDP leaves sharded. Each rank's scaler looks for inf/NaN in its own
# shard only, so one rank skips the optimizer step and the others take it.
import torch
from torch.cuda.amp import GradScaler
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, model, make_opt):
        self.model = FSDP(model)
        self.opt = make_opt(self.model.parameters())
        self.scaler = GradScaler()

    def train_step(self, batch):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = self.model(batch).sum()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)  # want CV301 "`self.scaler.step` checks only the gradients this rank holds.*FullyShardedDataParallel"
        self.scaler.update()


def loop(model, opt, loader):
    model = FSDP(model)
    scaler = torch.amp.GradScaler("cuda")
    for batch in loader:
        scaler.scale(model(batch).sum()).backward()
        scaler.step(opt)  # want CV301 "use ShardedGradScaler"
        scaler.update()
