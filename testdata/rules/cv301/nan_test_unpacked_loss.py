# The loss a helper hands back in a tuple, computed from this rank's DDP
# forward, is this rank's own: a NaN test of it skips the gradient
# all-reduce on that rank only (RFdiffusion2's trainer).
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def calc_loss(self, out):
        return out.sum(), {"aux": out.mean().detach()}

    def train(self, rank, loader, scaler):
        ddp_model = DDP(torch.nn.Linear(4, 4).cuda(rank), device_ids=[rank])
        for batch in loader:
            out = ddp_model(batch.cuda(rank))
            loss, loss_dict = self.calc_loss(out)
            if not torch.isnan(loss):
                scaler.scale(loss).backward()  # want CV301 "depends on `not torch.isnan\(loss\)`"
