# A prefetcher for dict batches: the end of the data sets the attribute to
# None (a dropped reference, not a write on the current stream), and the
# dict's items() reads the dict, not device memory.
import torch


class Prefetcher:
    def __init__(self, loader, device):
        self.it = iter(loader)
        self.device = device
        self.stream = torch.cuda.Stream()

    def preload(self):
        try:
            self.batch = next(self.it)
        except StopIteration:
            self.batch = None
            return
        with torch.cuda.stream(self.stream):
            self.batch = {k: v.to(self.device, non_blocking=True) for k, v in self.batch.items()}

    def next(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        batch = self.batch
        self.preload()
        return batch
