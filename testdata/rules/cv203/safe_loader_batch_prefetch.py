# A CUDA prefetching loader: the batch next() takes from the DataLoader's
# iterator is host memory, copied to the device on the side stream; the
# consumer waits that stream before it hands the batch out (VideoLLaMA3's
# evaluation loader).
import torch
from torch.utils.data import DataLoader


def to_cuda(d):
    for k, v in d.items():
        d[k] = v.to(device="cuda", non_blocking=True)
    return d


class CUDALoader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stream = torch.cuda.Stream()

    def __iter__(self):
        self.iter = super().__iter__()
        self.preload()
        return self

    def preload(self):
        self.batch = next(self.iter, None)
        if self.batch is None:
            return None
        with torch.cuda.stream(self.stream):
            to_cuda(self.batch)

    def __next__(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        batch = self.batch
        if batch is None:
            raise StopIteration
        self.preload()
        return batch


class Transferer:
    # SALIENT++'s: a batch from the sampler's iterator, copied on the
    # host-to-device stream.
    def __init__(self, it, device):
        self.it = it
        self.device = device
        self.h2d = torch.cuda.Stream(device)
        self.queue = []

    def stage_h2d(self):
        batch = next(self.it, None)
        if batch is None:
            return
        with torch.cuda.stream(self.h2d):
            self.queue.append(self.preload_h2d(batch))

    def preload_h2d(self, batch_cpu):
        return batch_cpu.to(self.device, non_blocking=True)
