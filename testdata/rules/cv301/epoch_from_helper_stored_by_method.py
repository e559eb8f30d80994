# A method of the solver stores the epoch a helper found in this host's
# checkpoint directory (through another method that unpacks the helper's
# tuple); the solve loop starts from it: hosts that see different files
# run different numbers of epochs (obow's Solver.load_checkpoint).
import glob

import torch.distributed as dist


def find_last_epoch(pattern):
    files = glob.glob(pattern.format(epoch="*"))
    epochs = sorted(int(f.rsplit("_", 1)[1].split(".")[0]) for f in files)
    return int(epochs[-1]), pattern


class Solver:
    def __init__(self, model):
        self.model = model
        self._epoch = 0

    def find_last(self, suffix):
        last_epoch, _ = find_last_epoch("ckpt_{epoch}" + suffix)
        return last_epoch

    def load_checkpoint(self, epoch):
        if epoch == -1:
            epoch = self.find_last(".pth")
        self._epoch = epoch

    def solve(self, num_epochs):
        for epoch in range(self._epoch, num_epochs):
            dist.barrier()  # want CV301 "file system"


def main(args, model):
    dist.init_process_group("gloo")
    solver = Solver(model)
    if args.start_epoch != 0:
        solver.load_checkpoint(args.start_epoch)
    solver.solve(args.epochs)
