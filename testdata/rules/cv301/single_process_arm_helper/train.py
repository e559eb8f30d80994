# ctm's trainer loads the optimizer state inside a try whose error it
# swallows: with several processes every rank reads the file itself, and
# only a one-process job goes through the MPI broadcast, which then pairs
# with no other rank. The load that broadcasts on every job size is
# still reported.
import torch
import torch.distributed as dist

import dist_util


class Trainer:
    def __init__(self, model, ckpt):
        self.model = model
        self.ckpt = ckpt
        self.opt = torch.optim.Adam(model.parameters())
        try:
            self._load_optimizer_state()
        except:
            print("warning: optimizer not loaded")
        try:
            self._load_ema()  # want CV301 "bcast"
        except:
            print("warning: EMA not loaded")
        dist_util.sync_params(self.model.parameters())

    def _load_optimizer_state(self):
        if dist.get_world_size() > 1:
            state_dict = torch.load(self.ckpt, map_location="cpu")
        else:
            state_dict = dist_util.load_state_dict(self.ckpt)
        self.opt.load_state_dict(state_dict)

    def _load_ema(self):
        meta = torch.load(self.ckpt + ".meta", map_location="cpu")
        self.ema = dist_util.load_state_dict(meta["ema_path"])


def main():
    dist.init_process_group("nccl")
    Trainer(torch.nn.Linear(4, 4).cuda(), "opt.pt")
