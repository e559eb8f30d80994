# The method agrees on the epoch before storing it: rank 0's answer,
# broadcast, is what every rank's solve loop starts from.
import glob

import torch
import torch.distributed as dist


def find_last_epoch(pattern):
    files = glob.glob(pattern.format(epoch="*"))
    return max(int(f.rsplit("_", 1)[1].split(".")[0]) for f in files)


class Solver:
    def __init__(self, model):
        self.model = model
        self._epoch = 0

    def load_checkpoint(self, epoch):
        if epoch == -1:
            epoch = find_last_epoch("ckpt_{epoch}.pth")
        t = torch.tensor([epoch])
        dist.broadcast(t, 0)
        self._epoch = int(t.item())

    def solve(self, num_epochs):
        for epoch in range(self._epoch, num_epochs):
            dist.barrier()


def main(args, model):
    dist.init_process_group("gloo")
    solver = Solver(model)
    if args.start_epoch != 0:
        solver.load_checkpoint(args.start_epoch)
    solver.solve(args.epochs)
