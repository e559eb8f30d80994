# The batch is moved to the device on the current stream before the side
# stream reads it: the side stream needs a wait.
import torch


class Prefetcher:
    def __init__(self, loader):
        self.iter = iter(loader)
        self.stream = torch.cuda.Stream()

    def preload(self):
        batch = next(self.iter, None)
        batch = batch.cuda(non_blocking=True)
        with torch.cuda.stream(self.stream):
            self.normed = batch.float() / 255  # want CV203 "\"batch\" is written on the current stream"
