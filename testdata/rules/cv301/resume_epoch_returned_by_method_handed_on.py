# A method returns the epoch it read from the checkpoint this host found,
# and the caller hands it to the method whose loop it bounds (YouReID's
# BaseTrainer.load_ckpt, then train_body): hosts that see different
# files run different numbers of epochs.
import os

import torch
import torch.distributed as dist


class Trainer:
    def load_ckpt(self, model, ckpt):
        start_epoch = 0
        if os.path.exists(ckpt):
            checkpoint = torch.load(ckpt, map_location="cpu")
            start_epoch = checkpoint["epoch"]
            model.load_state_dict(checkpoint["state_dict"])
        return start_epoch

    def train_body(self, model, epochs, start_epoch=0):
        for epoch in range(start_epoch, epochs):
            dist.barrier()  # want CV301 "file system"

    def run(self, model, epochs):
        dist.init_process_group("gloo")
        start_epoch = self.load_ckpt(model, "out/checkpoint.pth")
        self.train_body(model, epochs, start_epoch)
